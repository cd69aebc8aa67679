/**
 * The auth server's schema calls of SPEC §7 (decision 011), super only:
 * - GET    /dt/v1/translator?return=key               every table that has a schema: ["fac_plants", …]
 * - GET    /dt/v1/translator?return=keys&key={table}  the field keys of that table's schema
 * - DELETE /dt/v1/collections/sch_{table}             removes the table's schema (its records stay,
 *                                                     unreachable until a schema is uploaded again)
 * - POST   /dt/v1/bulkupload/sch_{table}?org=auth&id=new   body: the keys (field definitions, SPEC §3),
 *                                                     as an array or { label?, keys: [...] }: a new schema
 * Tables the product ships with (core, platform, every seeded group) are refused: their schemas
 * are edited on /SupSchema, never dropped or replaced here. Every change is an audited store write.
 */
import type { AppLoadContext } from '@remix-run/node'
import { z, ZodError } from 'zod'
import { isCollectionName } from '../../db/sql'
import { PLATFORM_ORG } from '../../route-map'
import { normalizeSchema } from '../../schemas/table-schema'
import { isPlatformCollection } from '../../route-map'
import { allSchemaInputs } from '../../seed/index.server'
import { AppError, conflict, forbidden, notFound } from '../../utils/errors'
import type { ApiCaller } from '../../auth/api-caller.server'
import { readJson } from '../respond.server'
import { parsed } from './body.server'
import { issueLine } from '../../utils/zod-messages'

export const SCHEMA_ADMIN = new Set(['translator', 'collections', 'bulkupload'])
/** Largest schema upload (a schema of a few hundred fields fits easily). */
const SCHEMA_BODY_MAX = 200_000

let shipped: Set<string> | null = null
/** Tables whose schema the product ships (and re-creates on start): never dropped or replaced here. */
export function isShippedTable(key: string): boolean {
  shipped ??= new Set(allSchemaInputs().map((s) => (s as { key: string }).key))
  return shipped.has(key) || isPlatformCollection(key) || key === 'schemas'
}

/** `sch_{table}` → table, or a 400 naming the path. */
function tableOfSchemaName(id: string | null): string {
  const m = /^sch_([a-z][a-z0-9_]{0,50})$/.exec(id ?? '')
  if (!m || !isCollectionName(m[1])) throw new AppError('BAD_INPUT', 'name the schema as sch_{table}: a table name is lower-case letters, digits and _', { field: 'key' })
  return m[1]
}

const Upload = z.union([z.array(z.unknown()).min(1, 'give at least one key'), z.object({ label: z.string().min(1).max(100).optional(), keys: z.array(z.unknown()).min(1, 'give at least one key') }).strict()])

function badSchema(e: unknown): never {
  if (e instanceof ZodError) {
    const i = e.issues[0]
    const field = ['keys', ...i.path.slice(1)].join('.')
    throw new AppError('BAD_INPUT', issueLine(i, field), { field })
  }
  throw e
}

/** A schema-admin call, or null when `table` is not one of them. */
export async function schemaAdminCall(context: AppLoadContext, c: ApiCaller, method: string, table: string, id: string | null, request: Request, url: URL): Promise<Response | null> {
  if (!SCHEMA_ADMIN.has(table)) return null
  if (c.user.role !== 'super') throw forbidden('Only super may manage table schemas.')
  const { schemas, store } = context.database
  const q = url.searchParams

  if (table === 'translator') {
    if (method !== 'GET' || id) throw new AppError('NOT_ALLOWED', `${method} is not allowed on /dt/v1/translator; only GET`)
    const ret = q.get('return')
    if (ret === 'key') {
      const keys = (await store.find(PLATFORM_ORG, 'schemas', {}, 10_000)).map((s) => s._id).sort()
      return Response.json(keys)
    }
    if (ret === 'keys') {
      const key = q.get('key') ?? ''
      if (!isCollectionName(key)) throw new AppError('BAD_INPUT', 'key: give the table whose field keys you want (lower-case letters, digits, _)', { field: 'key' })
      const s = await schemas.get(key)
      if (!s) throw notFound(`There is no schema for a table named "${key}".`)
      return Response.json(s.fields.map((f) => f.key))
    }
    throw new AppError('BAD_INPUT', 'return: must be key (every table) or keys (the fields of ?key=)', { field: 'return' })
  }

  if (table === 'collections') {
    if (method !== 'DELETE' || !id) throw new AppError('NOT_ALLOWED', `${method} is not allowed here; DELETE /dt/v1/collections/sch_{table}`)
    const key = tableOfSchemaName(id)
    if (isShippedTable(key)) throw forbidden(`"${key}" is a table the product ships with: its schema cannot be deleted (edit it on /SupSchema).`)
    if (!(await store.get(PLATFORM_ORG, 'schemas', key))) throw notFound(`There is no schema for a table named "${key}".`)
    const before = await store.remove(c.actor, PLATFORM_ORG, 'schemas', key)
    schemas.invalidate(key)
    return Response.json({ deleted: `sch_${key}`, schema: before, note: 'The records of the table are kept; upload a schema again to reach them.' })
  }

  // bulkupload
  if (method !== 'POST' || !id) throw new AppError('NOT_ALLOWED', `${method} is not allowed here; POST /dt/v1/bulkupload/sch_{table}?org=auth&id=new`)
  const key = tableOfSchemaName(id)
  if (q.get('org') !== PLATFORM_ORG) throw new AppError('BAD_INPUT', `org: schemas live on the auth server: give org=${PLATFORM_ORG}`, { field: 'org' })
  if (q.get('id') !== 'new') throw new AppError('BAD_INPUT', 'id: only id=new (a new schema) is taken; delete the old one first', { field: 'id' })
  if (isShippedTable(key)) throw forbidden(`"${key}" is a table the product ships with: its schema is edited on /SupSchema, not uploaded.`)
  const body = parsed(Upload, await readJson(request, SCHEMA_BODY_MAX))
  const input = Array.isArray(body) ? { key, label: key, items: body } : { key, label: body.label ?? key, items: body.keys }
  let candidate
  try {
    candidate = normalizeSchema(input)
  } catch (e) {
    badSchema(e)
  }
  if (await store.get(PLATFORM_ORG, 'schemas', key)) throw conflict(`A schema for "${key}" exists: DELETE /dt/v1/collections/sch_${key} first.`)
  const saved = await schemas.put(c.actor, candidate)
  return Response.json(saved, { status: 201 })
}
