/**
 * GET /api/openapi.json: the OpenAPI 3.1 description of the whole JSON API (app/api/openapi),
 * generated from the routes' zod schemas once per process and served from memory. Public: it
 * describes the product's calls and tables, no organisation's data.
 */
import { openApiDocument } from '../api/openapi/document.server'

export function loader() {
  return new Response(openApiDocument().text, {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  })
}
