/**
 * `/dt/v1/{table}` and `/dt/v1/{table}/{id}` (SPEC §7): authenticate (`x-access-token`), then
 * the calls with their own rules, one module per group — the latest sensor reading and a reading
 * sent over HTTP (sensors.server.ts; the latter also takes a device's Basic auth), the sign-in flow's calls (flow.server.ts), the schema calls of the auth server
 * (schema-admin.server.ts), the OTA record delete (ota.server.ts; `/ota/{name}` is its own route),
 * set_preferences and the platform reads (platform.server.ts) — else the generic table calls
 * (records.server.ts).
 * Every answer is JSON; every error the envelope.
 */
import type { AppLoadContext } from '@remix-run/node'
import { requireApiCaller } from '../../auth/api-caller.server'
import { api } from '../respond.server'
import { isCollectionName } from '../../db/sql'
import { AppError, notFound } from '../../utils/errors'
import { flowCall } from './flow.server'
import { otaCall } from './ota.server'
import { platformRead, preferences } from './platform.server'
import { schemaAdminCall } from './schema-admin.server'
import { isReadingCall, isReadingPost, latestReading, postReading } from './sensors.server'
import { createFromApi, deleteFromApi, getRecord, listRecords, updateFromApi } from './records.server'

export function dtCall(request: Request, context: AppLoadContext, table: string | undefined, id: string | null): Promise<Response> {
  return api(async () => {
    const method = request.method.toUpperCase()
    // POST /dt/v1/{deviceID}: a sensor reading over HTTP, from the device itself or a token (sensors.server.ts)
    if (table && (await isReadingPost(context, method, table, id))) return postReading(request, context, table)
    const caller = await requireApiCaller(request, context)
    const url = new URL(request.url)
    // GET /dt/v1/{deviceID}?last=1: a device id need not look like a table name
    if (table && (await isReadingCall(context, method, table, id, url))) return latestReading(context, caller, table, url)
    // a name that cannot be a table is answered before anything is looked up
    if (!table || !isCollectionName(table)) throw notFound(`There is no table named "${String(table ?? '').slice(0, 60)}".`)
    const flow = await flowCall(context, caller, method, table, id, request, url)
    if (flow) return flow
    const admin = await schemaAdminCall(context, caller, method, table, id, request, url)
    if (admin) return admin
    const ota = table === 'ota' ? await otaCall(context, caller, method, id) : null
    if (ota) return ota
    if (table === 'set_preferences') return preferences(context, caller, method, id, request, url)
    if (method === 'GET') return (await platformRead(context, caller, table, id, url)) ?? (id ? getRecord(context, caller, table, id) : listRecords(context, caller, table, url))
    if (method === 'POST' && !id) return createFromApi(context, caller, table, request)
    if ((method === 'PUT' || method === 'PATCH') && id) return updateFromApi(context, caller, table, id, request, url)
    if (method === 'DELETE' && id) return deleteFromApi(context, caller, table, id, request, url)
    throw new AppError('NOT_ALLOWED', `${method} is not allowed on ${id ? '/dt/v1/{table}/{id}' : '/dt/v1/{table}'}`)
  }, context.logger)
}
