/**
 * POST /misc/devicekey {deviceID}: a new device key for one of the caller's facility's devices
 * (a `sen_devices` deviceID or a `set_printers` deviceid), for admins and super. The device signs in
 * to the bus as `{org}/{deviceID}` with it (app/bus/credentials.server.ts) and a printer fetches
 * labels with it; the previous key of that device stops working. The key is shown once.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { requireApiCaller } from '../auth/api-caller.server'
import { bodyOf } from '../api/dt/body.server'
import { isAdmin } from '../api/dt/platform.server'
import { DeviceKeyBody } from '../api/openapi/schemas'
import { api } from '../api/respond.server'
import { issueDeviceKey } from '../bus/credentials.server'
import { SEGMENT_RE } from '../bus/topics'
import { AppError, forbidden, notFound } from '../utils/errors'

export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    if (request.method !== 'POST') throw new AppError('NOT_ALLOWED', 'use POST /misc/devicekey {deviceID}')
    const c = await requireApiCaller(request, context)
    if (!isAdmin(c)) throw forbidden('Only an admin of this facility may issue device keys.')
    const { deviceID } = await bodyOf(request, DeviceKeyBody)
    if (!SEGMENT_RE.test(deviceID)) throw new AppError('BAD_INPUT', 'deviceID: letters, digits and _ . : @ - only', { field: 'deviceID' })
    const { store, schemas } = context.database
    const known =
      ((await schemas.hasCollection('sen_devices')) && (await store.find(c.org, 'sen_devices', { deviceID }, 1)).length > 0) ||
      ((await schemas.hasCollection('set_printers')) && (await store.find(c.org, 'set_printers', { deviceid: deviceID }, 1)).length > 0)
    if (!known) throw notFound('There is no device with that id in this facility (Settings → Sensor Devices or Printers).')
    const cred = await issueDeviceKey(context.database, c.org, deviceID, c.user.uid)
    context.logger.info({ org: c.org, deviceID, by: c.user.uid }, 'device key issued')
    return Response.json({ ...cred }, { status: 201 })
  }, context.logger)
}

export const loader = () => Response.json({ errors: [{ code: 'NOT_ALLOWED', message: 'use POST /misc/devicekey {deviceID}' }] }, { status: 405 })
