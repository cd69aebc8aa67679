/**
 * The route registry the OpenAPI document is generated from: one entry per operation (path and
 * method), with zod schemas for its parameters, body and answers. Entries marked `planned` describe
 * calls of SPEC §7 that are still being added (issue 7); the document marks them with
 * `x-canopy-planned: true` and says so in their description.
 */
import type { z } from 'zod'
import { STATUS_OF, type ErrorCode } from '../../utils/errors'
import { asJsonSchema, toJsonSchema, type JsonSchema } from './json-schema'

export const TAGS = [
  { name: 'Auth server', description: 'Sign-in, tokens and the platform data every console loads (SPEC §7, auth server).' },
  { name: 'Organisation API', description: "A facility's tables: list, count, read, create, update, delete; the table pipeline (SPEC §7, organisation API server)." },
  { name: 'Files', description: "An organisation's files: upload, download, listing (SPEC §7)." },
  { name: 'Reference', description: 'This description of the API.' },
] as const
export type Tag = (typeof TAGS)[number]['name']

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
/** How a caller proves who they are: the x-access-token header, the console's session cookie, either, a token or a device's Basic auth, or nothing. */
export type Auth = 'token' | 'session' | 'token-or-session' | 'token-or-device' | 'none'
type Schema = z.ZodTypeAny | JsonSchema

export interface Answer {
  description: string
  schema?: Schema
  /** default application/json */
  contentType?: string
  /** more content types with the same schema (e.g. a file's several types) */
  contentTypes?: string[]
  headers?: Record<string, { description: string; schema: JsonSchema }>
}

export interface ApiOperation {
  method: Method
  /** OpenAPI path template: /dt/v1/{table}/{id} */
  path: string
  operationId: string
  summary: string
  description?: string
  tag: Tag
  auth: Auth
  /** path parameters: an object whose keys are the template's names; a JSON Schema per key overrides */
  pathParams?: z.AnyZodObject
  pathParamSchemas?: Record<string, JsonSchema>
  query?: z.AnyZodObject
  headers?: Record<string, { description: string; schema: Schema; required?: boolean }>
  body?: { schema: Schema; contentType?: string; description?: string; required?: boolean }
  /** success answers by status */
  answers: Record<number, Answer>
  /** refusals besides the usual ones (added from `auth` and `body`), as error codes */
  errors?: ErrorCode[]
  /** described from SPEC §7; not served yet */
  planned?: boolean
}

/** Component name of the refusal each error code answers with. */
export const errorResponseName = (code: ErrorCode) => `Error_${code}`

/** The usual refusals: a caller may be unauthenticated or too fast; a body may be bad or too large; any call may time out. */
export function errorsOf(op: ApiOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>(op.errors ?? [])
  if (op.auth !== 'none') codes.add('UNAUTHENTICATED')
  if (op.body) {
    codes.add('BAD_INPUT')
    codes.add('TOO_LARGE')
  }
  if (op.query || op.pathParams) codes.add('BAD_INPUT')
  codes.add('TOO_MANY')
  codes.add('UNAVAILABLE')
  return [...codes].sort((a, b) => STATUS_OF[a] - STATUS_OF[b])
}

function securityOf(auth: Auth): Array<Record<string, string[]>> {
  if (auth === 'token') return [{ accessToken: [] }]
  if (auth === 'session') return [{ session: [] }]
  if (auth === 'token-or-session') return [{ accessToken: [] }, { session: [] }]
  if (auth === 'token-or-device') return [{ accessToken: [] }, { deviceBasic: [] }]
  return []
}

function parameters(op: ApiOperation): JsonSchema[] {
  const out: JsonSchema[] = []
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
  for (const name of names) {
    const z = op.pathParams?.shape[name] as z.ZodTypeAny | undefined
    const schema = op.pathParamSchemas?.[name] ?? (z ? toJsonSchema(z) : { type: 'string' })
    out.push({ name, in: 'path', required: true, schema, ...(z?.description ? { description: z.description } : {}) })
  }
  for (const [name, z] of Object.entries((op.query?.shape ?? {}) as Record<string, z.ZodTypeAny>)) {
    out.push({ name, in: 'query', required: !z.isOptional(), schema: toJsonSchema(z), ...(z.description ? { description: z.description } : {}) })
  }
  for (const [name, h] of Object.entries(op.headers ?? {})) {
    out.push({ name, in: 'header', required: !!h.required, description: h.description, schema: asJsonSchema(h.schema) })
  }
  return out
}

function content(a: { schema?: Schema; contentType?: string; contentTypes?: string[] }) {
  const types = a.contentTypes ?? [a.contentType ?? 'application/json']
  const schema = a.schema ? asJsonSchema(a.schema) : undefined
  return Object.fromEntries(types.map((t) => [t, schema ? { schema } : {}]))
}

const PLANNED_NOTE = '**Planned** (issue 7, being added): described from SPEC §7; the server may not answer it yet.'

/** The OpenAPI Operation Object of one registry entry. */
export function operationObject(op: ApiOperation): JsonSchema {
  const responses: Record<string, unknown> = {}
  for (const [status, a] of Object.entries(op.answers)) {
    responses[status] = { description: a.description, ...(a.schema || a.contentTypes ? { content: content(a) } : {}), ...(a.headers ? { headers: a.headers } : {}) }
  }
  for (const code of errorsOf(op)) {
    const status = String(STATUS_OF[code])
    // two codes with one status (none today) would share the first one's response
    responses[status] ??= { $ref: `#/components/responses/${errorResponseName(code)}` }
  }
  const params = parameters(op)
  const description = [op.planned ? PLANNED_NOTE : '', op.description ?? ''].filter(Boolean).join('\n\n')
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(description ? { description } : {}),
    tags: [op.tag],
    security: securityOf(op.auth),
    ...(params.length ? { parameters: params } : {}),
    ...(op.body
      ? { requestBody: { required: op.body.required ?? true, ...(op.body.description ? { description: op.body.description } : {}), content: content(op.body) } }
      : {}),
    responses,
    ...(op.planned ? { 'x-canopy-planned': true } : {}),
  }
}
