/**
 * GET /dt/v1/{deviceID}?last=1 (SPEC §7): the latest reading of one device of the caller's facility,
 * `{ deviceID, data: { <code>: value, … }, ts }`. A device is a `sen_devices` record (its `deviceID`
 * field) of the token's organisation; readings are the sensor time series of app/sensors (the bus
 * ingest stores them). "The latest reading" is every code read at the device's newest time. A device without readings yet answers
 * `{ data: {}, ts: null }`; a device of another organisation is simply not there: 404.
 * Who: a user whose screens show the devices (the Sensors dashboard, SPEC §2.3; access.server.ts).
 * The sensor dictionary is GET /dt/v1/dictionary (platform.server.ts).
 *
 * POST /dt/v1/{deviceID}: the HTTP door for gateways without MQTT. The body is the bus message
 * (`{type:'reading', data:{<code>: number}, ts?}`), checked and batched by the same ingest
 * (app/sensors/ingest.server.ts) but all or nothing: 201 `{deviceID, data, ts}` once stored, 400
 * naming the first bad field, 404 for a device not of the caller's facility. Who: the device itself
 * (HTTP Basic `deviceID:key`, its bus credentials, as GET /labels; only for its own id) or an
 * `x-access-token` of a user who may see the devices (as ?last=1).
 */
import type { AppLoadContext } from '@remix-run/node'
import { authenticateBus } from '../../bus/credentials.server'
import { tableAccess } from '../../records/access.server'
import { latestReadings } from '../../sensors/store.server'
import { AppError, notFound } from '../../utils/errors'
import { requireApiCaller, type ApiCaller } from '../../auth/api-caller.server'
import { readJson } from '../respond.server'
import { FLOW_TABLES } from './flow.server'
import { SCHEMA_ADMIN } from './schema-admin.server'

/** Device ids as gateways name them (`SEN-4F2A11001`, `gl-scale-01`, a MAC address). */
const DEVICE_RE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/

/** Is this GET a latest-reading call? (`?last=` on a name that is not a table) */
export async function isReadingCall(context: AppLoadContext, method: string, name: string, id: string | null, url: URL): Promise<boolean> {
  return method === 'GET' && !id && url.searchParams.has('last') && !(await context.database.schemas.hasCollection(name))
}

export async function latestReading(context: AppLoadContext, c: ApiCaller, deviceID: string, url: URL): Promise<Response> {
  for (const k of url.searchParams.keys()) if (k !== 'last') throw new AppError('BAD_INPUT', `${k.slice(0, 64)}: a latest-reading call takes only last=1`, { field: k.slice(0, 64) })
  if (url.searchParams.getAll('last').join(',') !== '1') throw new AppError('BAD_INPUT', 'last: only last=1 (the latest reading) is answered', { field: 'last' })
  const access = await tableAccess(context, c.user, c.org, 'sen_devices')
  if (!DEVICE_RE.test(deviceID)) throw notFound('There is no device with that id in this facility.')
  const [device] = await context.database.store.find(access.org, 'sen_devices', { deviceID }, 1)
  if (!device) throw notFound('There is no device with that id in this facility.')
  // the time series of app/sensors (migration 005): every code read at the device's newest time
  const latest = await latestReadings(context.database.db, access.org, deviceID)
  const ts = latest.reduce<string | null>((m, x) => (m === null || x.at > m ? x.at : m), null)
  const data: Record<string, number> = {}
  for (const x of latest) if (x.at === ts) data[x.code] = x.value
  return Response.json({ deviceID, data, ts })
}

/** Is this a reading sent over HTTP? (POST on a device-id-like name that is neither a table nor another call's) */
export async function isReadingPost(context: AppLoadContext, method: string, name: string, id: string | null): Promise<boolean> {
  if (method !== 'POST' || id || !DEVICE_RE.test(name) || FLOW_TABLES.has(name) || SCHEMA_ADMIN.has(name)) return false
  return !(await context.database.schemas.hasCollection(name))
}

/** a reading is a handful of codes; a gateway batching more sends more requests */
const READING_MAX_BYTES = 4096

export async function postReading(request: Request, context: AppLoadContext, deviceID: string): Promise<Response> {
  const org = await readingSender(request, context, deviceID)
  if (!context.readings) throw new AppError('UNAVAILABLE', 'sensor ingest is not running on this server')
  const body = await readJson(request, READING_MAX_BYTES)
  const stored = await context.readings.submit(org, deviceID, body)
  return Response.json({ deviceID, ...stored }, { status: 201 })
}

/** The organisation a reading goes to: the device's own (Basic auth), or the token's. */
async function readingSender(request: Request, context: AppLoadContext, deviceID: string): Promise<string> {
  const basic = /^Basic\s+([A-Za-z0-9+/=]{1,600})$/i.exec(request.headers.get('authorization') ?? '')
  if (basic && !request.headers.get('x-access-token')) {
    // a device key never holds ':' but a device id may, so the key is what follows the last one
    const pair = Buffer.from(basic[1], 'base64').toString('utf8')
    const cut = pair.lastIndexOf(':')
    const id = cut > 0 ? await authenticateBus(context.database, context.env.SESSION_SECRET, pair.slice(0, cut), pair.slice(cut + 1)) : null
    if (id?.kind !== 'device') throw new AppError('UNAUTHENTICATED', 'Unknown device or key.')
    if (id.deviceID !== deviceID) throw new AppError('FORBIDDEN', 'A device sends only its own readings.')
    return id.org
  }
  const c = await requireApiCaller(request, context)
  try {
    return (await tableAccess(context, c.user, c.org, 'sen_devices')).org
  } catch (e) {
    // the name may have been meant as a table: without a device by that name it is simply not there
    if (e instanceof AppError && e.code === 'FORBIDDEN' && !(await context.database.store.find(c.org, 'sen_devices', { deviceID }, 1)).length)
      throw notFound(`There is no table or sensor device named "${deviceID}".`)
    throw e
  }
}
