/**
 * The generic table calls of SPEC §7 (organisation API server): list with equality filters,
 * `?count`, one record, create, update, delete. Reads and writes are scoped to the caller's
 * facility (`caller.org`) and to the tables the caller's screens show (app/records/access.server.ts);
 * writes go through the one write path (app/records/write.server.ts), the same as the edit form.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { ApiCaller } from '../../auth/api-caller.server'
import { readJson } from '../respond.server'
import { tableAccess } from '../../records/access.server'
import { createRecord, deleteRecord, updateRecord, type Writer } from '../../records/write.server'
import type { Doc } from '../../db/types'
import type { TableSchema } from '../../schemas/table-schema'
import { AppError, badInput, notFound } from '../../utils/errors'
import { checkId } from '../../utils/ids'

/** Rows a list answers by default and at most; rows it may skip at most (deep paging is the table pipeline's job). */
export const LIST_DEFAULT = 100
export const LIST_MAX = 1000
export const SKIP_MAX = 100_000
/** Largest JSON body a record write takes (SPEC is silent; a record with sub-tables fits easily). */
export const BODY_MAX = 1_000_000
/** Generic record fields (SPEC §3) a list may filter on besides the schema's own. */
const RECORD_FIELDS = new Set(['_id', 'IsUsed', 'ed', 'delete'])
/** Record ids are ObjectId-shaped or plain (decision 002); anything else names no record. */

export const writerOf = (c: ApiCaller): Writer => ({ user: c.user, actor: c.actor, facility: c.org })

function intParam(params: URLSearchParams, name: string, dflt: number, max: number): number {
  const raw = params.get(name)
  if (raw === null) return dflt
  if (!/^\d{1,9}$/.test(raw)) throw new AppError('BAD_INPUT', `${name} must be a whole number from 0 to ${max}`, { field: name })
  return Math.min(Number(raw), max)
}

/** `?field=value…` → equality filters on known fields; one value each, at most 500 characters. */
export function filtersOf(params: URLSearchParams, schema: TableSchema, reserved: string[] = []): Record<string, string> {
  const keys = new Set(schema.fields.map((f) => f.key))
  const where: Record<string, string> = {}
  for (const [k, v] of params) {
    if (['limit', 'skip', 'count', ...reserved].includes(k)) continue
    if (!keys.has(k) && !RECORD_FIELDS.has(k)) throw new AppError('BAD_INPUT', `${k.slice(0, 64)}: this table has no such field to filter on`, { field: k.slice(0, 64) })
    if (k in where) throw new AppError('BAD_INPUT', `${k}: give one value to filter on`, { field: k })
    if (v.length > 500) throw new AppError('BAD_INPUT', `${k}: a filter value is at most 500 characters`, { field: k })
    where[k] = v
  }
  return where
}

/** GET /dt/v1/{table}?{filters}&limit&skip, or ?count → { count }. */
export async function listRecords(context: AppLoadContext, caller: ApiCaller, table: string, url: URL): Promise<Response> {
  const access = await tableAccess(context, caller.user, caller.org, table)
  const where = filtersOf(url.searchParams, access.schema)
  if (url.searchParams.has('count')) return Response.json({ count: await context.database.store.count(access.org, table, where) })
  const limit = intParam(url.searchParams, 'limit', LIST_DEFAULT, LIST_MAX)
  const skip = intParam(url.searchParams, 'skip', 0, SKIP_MAX)
  return Response.json(await context.database.store.find(access.org, table, where, limit, skip))
}

/** GET /dt/v1/{table}/{id} */
export async function getRecord(context: AppLoadContext, caller: ApiCaller, table: string, id: string): Promise<Response> {
  const access = await tableAccess(context, caller.user, caller.org, table)
  const doc = await context.database.store.get(access.org, table, checkId(id))
  if (!doc) throw notFound('There is no record with that id.')
  return Response.json(doc)
}

/** The unchanged-since check a client asks for: If-Match (the ts it read) or ?ts=. */
function expectTsOf(request: Request, url: URL): string | undefined {
  const v = (request.headers.get('if-match') ?? url.searchParams.get('ts') ?? '').replace(/^W\//, '').replace(/^"|"$/g, '')
  if (!v) return undefined
  if (v.length > 40 || Number.isNaN(new Date(v).getTime())) throw new AppError('BAD_INPUT', 'If-Match must be the ts of the record as read, an ISO date', { field: 'ts' })
  return v
}

const saved = (doc: Doc | null, status = 200) => (doc ? Response.json(doc, { status }) : Response.json({ stopped: true }, { status: 200 }))

/** POST /dt/v1/{table}: create; 201 with the record as stored. */
export async function createFromApi(context: AppLoadContext, caller: ApiCaller, table: string, request: Request): Promise<Response> {
  await tableAccess(context, caller.user, caller.org, table) // 404/403 before reading a body
  const body = await readJson(request, BODY_MAX)
  const r = await createRecord(context, writerOf(caller), table, body, { anyMinute: true })
  return saved(r.doc, 201)
}

/** PUT (or PATCH) /dt/v1/{table}/{id}: a partial update; `cts`/`ts` in the body are ignored (SPEC §7). */
export async function updateFromApi(context: AppLoadContext, caller: ApiCaller, table: string, id: string, request: Request, url: URL): Promise<Response> {
  await tableAccess(context, caller.user, caller.org, table)
  const rid = checkId(id)
  const body = await readJson(request, BODY_MAX)
  if (body && typeof body === 'object' && !Array.isArray(body) && '_id' in body && (body as { _id: unknown })._id !== rid) throw badInput('_id: a record keeps its id; send it without _id or with this one', { field: '_id' })
  const r = await updateRecord(context, writerOf(caller), table, rid, body, { partial: true, anyMinute: true, expectTs: expectTsOf(request, url) })
  return saved(r.doc)
}

/** DELETE /dt/v1/{table}/{id}: answers the record as it was. */
export async function deleteFromApi(context: AppLoadContext, caller: ApiCaller, table: string, id: string, request: Request, url: URL): Promise<Response> {
  const doc = await deleteRecord(context, writerOf(caller), table, checkId(id), { expectTs: expectTsOf(request, url) })
  return Response.json(doc)
}
