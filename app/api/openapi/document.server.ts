/**
 * The OpenAPI 3.1 document of the whole JSON API: the route registry (./operations.ts), the error
 * envelope with the codes of app/utils/errors.ts, and one record schema per shipped table
 * (./tables.server.ts). Built once per process and kept (`openApiDocument`); served by
 * /api/openapi.json and shown by /api/reference.
 */
import { APP_NAME, APP_VERSION } from '../../version'
import { STATUS_OF, type ErrorCode } from '../../utils/errors'
import type { TableSchema } from '../../schemas/table-schema'
import { toJsonSchema, type JsonSchema } from './json-schema'
import { OPERATIONS } from './operations'
import { errorResponseName, operationObject, TAGS, type ApiOperation } from './registry'
import { AnyRecord, ERROR_CODES, ErrorEnvelope } from './schemas'
import { shippedTables, tableComponents } from './tables.server'

export type OpenApiDocument = JsonSchema & { openapi: string; paths: Record<string, Record<string, JsonSchema>>; components: JsonSchema & { schemas: Record<string, JsonSchema> } }

const ERROR_TEXT: Record<ErrorCode, string> = {
  BAD_INPUT: 'Bad input: a parameter or the body is not what this call takes.',
  UNAUTHENTICATED: 'No valid x-access-token (missing, expired or revoked), or a sign-in that failed.',
  FORBIDDEN: 'Signed in, but not allowed: another organisation, a table your screens do not show, a row flagged ed/delete = no.',
  NOT_FOUND: 'No such table, record or call.',
  CONFLICT: 'The record changed since it was read (If-Match), or the write clashes with a stored one.',
  TOO_LARGE: 'The request body is larger than this call takes.',
  UNSUPPORTED: 'A file type that is not accepted.',
  TOO_MANY: 'Too many requests: wait the Retry-After seconds.',
  UNAVAILABLE: 'The server could not answer in time, or at all; try again later.',
  NOT_ALLOWED: 'The address exists, but not for this method.',
  DEVICE_TIMEOUT: 'A device (scale, scanner) did not answer in time.',
}

function errorResponses(): Record<string, JsonSchema> {
  const envelope = { $ref: '#/components/schemas/ErrorEnvelope' }
  return Object.fromEntries(
    ERROR_CODES.map((code) => {
      const schema = { allOf: [envelope, { properties: { errors: { items: { properties: { code: { const: code } } } } } }] }
      const headers = code === 'TOO_MANY' ? { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } } } : undefined
      return [errorResponseName(code), { description: `${STATUS_OF[code]} ${code}: ${ERROR_TEXT[code]}`, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } }]
    }),
  )
}

/** Builds the document from a registry and the tables to describe (pure: tests pass their own). */
export function buildOpenApiDocument(operations: ApiOperation[] = OPERATIONS, tables: TableSchema[] = shippedTables()): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const op of operations) {
    const item = (paths[op.path] ??= {})
    if (item[op.method]) throw new Error(`two registry entries for ${op.method.toUpperCase()} ${op.path}`)
    item[op.method] = operationObject(op)
  }
  const record = toJsonSchema(AnyRecord)
  return {
    openapi: '3.1.0',
    info: {
      title: `${APP_NAME} JSON API`,
      version: APP_VERSION,
      summary: 'The auth server and organisation API server calls of SPEC §7, served by one process.',
      description:
        'Every answer is JSON unless stated; every refusal is the error envelope { errors: [{ code, message, field? }] } with the HTTP status of its code. ' +
        'Send the access token from POST /auth/login as the x-access-token header; after a 401, refresh once with POST /auth/refresh and retry. ' +
        'API clients keep to 8 requests per 500 ms (SPEC §9); the server answers 429 with Retry-After past its own limits. ',
    },
    servers: [{ url: '/', description: 'This server (auth and organisation API in one process).' }],
    tags: TAGS.map((t) => ({ ...t })),
    paths,
    components: {
      securitySchemes: {
        accessToken: { type: 'apiKey', in: 'header', name: 'x-access-token', description: 'From POST /auth/login or /auth/refresh.' },
        session: { type: 'apiKey', in: 'cookie', name: 'canopy_sid', description: "The web console's session cookie." },
        deviceBasic: { type: 'http', scheme: 'basic', description: 'A device: user {org}/{deviceID}, password its device key (POST /dt/v1/devices/keys).' },
      },
      schemas: {
        ErrorEnvelope: toJsonSchema(ErrorEnvelope),
        TableName: { type: 'string', enum: tables.map((t) => t.key), description: 'The tables the product ships with; a table an operator adds is served the same way.' },
        Record: { ...record, description: 'A record of any table: its table schema\'s fields (Record_{table}) plus _id, cts and ts.' },
        ...tableComponents(tables),
      },
      responses: errorResponses(),
    },
  }
}

let cached: { doc: OpenApiDocument; text: string } | null = null

/** The document of this process, built on first use and kept (the registry and shipped tables do not change at run time). */
export function openApiDocument(): { doc: OpenApiDocument; text: string } {
  if (!cached) {
    const doc = buildOpenApiDocument()
    cached = { doc, text: JSON.stringify(doc) }
  }
  return cached
}
