/**
 * GET /dt/v1/{deviceID}?last=1 (SPEC §7): the latest reading of one device of the caller's facility,
 * `{ deviceID, data: { <code>: value, … }, ts }`. A device is a `sen_devices` record (its `deviceID`
 * field) of the token's organisation; readings are the sensor time series of app/sensors (the bus
 * ingest stores them). "The latest reading" is every code read at the device's newest time. A device without readings yet answers
 * `{ data: {}, ts: null }`; a device of another organisation is simply not there: 404.
 * Who: a user whose screens show the devices (the Sensors dashboard, SPEC §2.3; access.server.ts).
 * The sensor dictionary is GET /dt/v1/dictionary (platform.server.ts).
 */
import type { AppLoadContext } from '@remix-run/node'
import { tableAccess } from '../../records/access.server'
import { latestReadings } from '../../sensors/store.server'
import { AppError, notFound } from '../../utils/errors'
import type { ApiCaller } from '../auth.server'

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
