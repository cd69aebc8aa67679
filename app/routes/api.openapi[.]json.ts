/**
 * GET /api/openapi.json: the OpenAPI 3.1 description of the whole JSON API (app/api/openapi),
 * generated from the routes' zod schemas once per process and served from memory. Behind sign-in
 * (issue 20 item 12, decision 055): it names every table and its fields, so it answers an API
 * client's x-access-token or a console session whose sign-in is finished (the /api/reference
 * page's link), never an anonymous caller (401, the JSON error envelope). Never stored by a cache.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { openApiDocument } from '../api/openapi/document.server'
import { api } from '../api/respond.server'
import { signedInCaller } from '../auth/api-caller.server'

export function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    await signedInCaller(request, context)
    return new Response(openApiDocument().text, {
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    })
  }, context.logger)
}
