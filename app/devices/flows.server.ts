/**
 * The device flows of SPEC §4, run by the server for a signed-in user (the browser never speaks
 * MQTT; routes/devices.*.ts call these):
 * - scale: `{org}/request/{device}` read_weight (args user | now) → wait for `{org}/bcast/{device}`
 *   with data.weight → `audio success`; no reading in 10 s (30 s for args user) → `audio failure`
 *   and a DEVICE_TIMEOUT error that says why;
 * - scan: `{org}/scanreq/{uid}/0` scan → wait for `{org}/scanresp/{uid}/0` (data.rfid, or status
 *   cancelled), or a mapped reader asked on `{org}/request/{device}` (scan) answering on
 *   `{org}/bcast/{device}` with data.rfid;
 * - print: `{org}/request/{printer}` print { template, id, table, server, org }.
 */
import type { AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import type { BusMessage } from '../bus/bus.server'
import { topics } from '../bus/topics'
import { printRequest } from '../labels/printers.server'
import { AppError } from '../utils/errors'
import { timeoutOf, type FieldDevice, type PrinterChoice } from './lookup.server'

const WEIGHT = z.object({ data: z.object({ weight: z.coerce.number().finite().min(0).max(1_000_000), unit: z.enum(['lb', 'oz', 'g', 'kg']).default('g') }) })
const RFID = z.object({ data: z.object({ rfid: z.string().trim().min(1).max(128) }) })
const CANCELLED = z.object({ status: z.literal('cancelled') })

function busOf(context: AppLoadContext) {
  const bus = context.bus
  if (!bus || bus.state !== 'connected') throw new AppError('UNAVAILABLE', 'The device network is not connected right now. Try again in a moment.')
  return bus
}

export interface Reading {
  weight: number
  unit: 'lb' | 'oz' | 'g' | 'kg'
  device: string
}

export async function readWeight(context: AppLoadContext, org: string, uid: string, d: FieldDevice, signal?: AbortSignal): Promise<Reading> {
  if (!d.deviceid) throw new AppError('NOT_FOUND', 'No scale is set up for this field. An admin can map one under Settings → Input Devices.')
  const bus = busOf(context)
  const ms = timeoutOf(d)
  const device = d.deviceid
  const reply = bus.waitFor((m: BusMessage) => m.org === org && m.kind === 'bcast' && m.subject === device && WEIGHT.safeParse(m.body).success, ms, signal)
  bus.publish(topics.request(org, device), { cmd: 'read_weight', args: d.args === 'user' ? 'user' : 'now', uid })
  const m = await reply
  if (!m) {
    bus.publish(topics.request(org, device), { cmd: 'audio', sound: 'failure' })
    context.logger.info({ org, device, ms }, 'scale reading timed out')
    if (signal?.aborted) throw new AppError('BAD_INPUT', 'The reading was cancelled.')
    throw new AppError('DEVICE_TIMEOUT', `${d.name ?? device} did not send a weight within ${ms / 1000} s. Check that it is on and connected, place the load, and try again.`)
  }
  bus.publish(topics.request(org, device), { cmd: 'audio', sound: 'success' })
  const { weight, unit } = WEIGHT.parse(m.body).data
  return { weight, unit, device }
}

export async function scanCode(context: AppLoadContext, org: string, uid: string, d: FieldDevice, signal?: AbortSignal): Promise<{ code: string }> {
  const bus = busOf(context)
  const ms = timeoutOf(d)
  const reply = bus.waitFor(
    (m) =>
      m.org === org &&
      ((m.kind === 'scanresp' && m.subject === uid && (RFID.safeParse(m.body).success || CANCELLED.safeParse(m.body).success)) ||
        (m.kind === 'bcast' && !!d.deviceid && m.subject === d.deviceid && RFID.safeParse(m.body).success)),
    ms,
    signal,
  )
  bus.publish(topics.scanreq(org, uid), { cmd: 'scan' })
  // a mapped reader (a portal, a fixed antenna) is asked too; whichever answers first fills the field
  if (d.deviceid) bus.publish(topics.request(org, d.deviceid), { cmd: 'scan', uid })
  const m = await reply
  if (!m) throw new AppError('DEVICE_TIMEOUT', `No tag was scanned within ${ms / 1000} s. Check that your scanner is on and connected, then try again.`)
  const r = RFID.safeParse(m.body)
  if (!r.success) throw new AppError('CONFLICT', 'The scan was cancelled on the scanner.')
  return { code: r.data.data.rfid }
}

export function requestPrint(context: AppLoadContext, org: string, p: PrinterChoice, table: string, id: string, server: string): void {
  const bus = busOf(context)
  bus.publish(topics.request(org, p.deviceid), printRequest(p, { table, id }, server, org))
  context.logger.info({ org, printer: p.deviceid, table, id }, 'print request sent')
}
