/**
 * Which device serves a field or a table (SPEC §3 settings): input device mappings
 * (`sen_input_devices`: field `{table}.{field}`, deviceid, type rfid | scale, args user | other),
 * scanner settings (`sen_scanner_settings`: table, field, type) and printers (`set_printers`:
 * field, deviceid, template). Settings are read as the server, not as the user: a grower who may
 * not open the settings screens still gets the scale set up for their field.
 */
import type { AppLoadContext } from '@remix-run/node'
import { orgPrinters, printersForSchema } from '../labels/printers.server'
import type { FieldDef, TableSchema } from '../schemas/table-schema'
import { parseScannerField } from '../forms/scanner-setting'

export type DeviceKind = 'scale' | 'rfid'

export interface FieldDevice {
  kind: DeviceKind
  /** the mapped device; null for an RFID scan that goes to the user's own scanner */
  deviceid: string | null
  name: string | null
  /** 'user': a person places the load (30 s to answer), otherwise 10 s (SPEC §4, §9) */
  args: 'user' | 'other'
}

export interface PrinterChoice {
  id: string
  name: string
  deviceid: string
  template: string
  field: string
  online: boolean
}

const MAX = 500
/** SPEC §9: a scale answers within 10 s, 30 s when the device argument is user */
export const timeoutOf = (d: Pick<FieldDevice, 'args'>) => (d.args === 'user' ? 30_000 : 10_000)

type Doc = Record<string, unknown>
const str = (v: unknown) => (typeof v === 'string' ? v : '')

async function deviceNames(context: AppLoadContext, org: string): Promise<Map<string, string>> {
  const rows = await context.database.store.find(org, 'sen_devices', {}, MAX).catch(() => [] as Doc[])
  return new Map(rows.map((d) => [str(d.deviceID), str(d.deviceName) || str(d.deviceID)]))
}

/** The devices of every field of a table, by field key (only fields that have one). */
export async function fieldDevices(context: AppLoadContext, org: string, collection: string, schema: TableSchema): Promise<Record<string, FieldDevice[]>> {
  const { store, schemas } = context.database
  const [inputs, scanners] = await Promise.all([
    (await schemas.hasCollection('sen_input_devices')) ? store.find(org, 'sen_input_devices', {}, MAX) : [],
    (await schemas.hasCollection('sen_scanner_settings')) ? store.find(org, 'sen_scanner_settings', { table: collection }, MAX) : [],
  ])
  const names = inputs.length ? await deviceNames(context, org) : new Map<string, string>()
  const keys = new Set(schema.fields.map((f) => f.key))
  const out: Record<string, FieldDevice[]> = {}
  const add = (field: string, d: FieldDevice) => {
    if (!keys.has(field)) return
    const list = (out[field] ??= [])
    if (!list.some((x) => x.kind === d.kind)) list.push(d)
  }
  for (const m of inputs) {
    const [table, field] = str(m.field).split('.')
    const kind = str(m.type)
    if (table !== collection || !field || (kind !== 'scale' && kind !== 'rfid')) continue
    const deviceid = str(m.deviceid) || null
    add(field, { kind, deviceid, name: deviceid ? (names.get(deviceid) ?? deviceid) : null, args: m.args === 'user' ? 'user' : 'other' })
  }
  // a scanner setting (or the schema's own scanner flag) without a mapped device: RFID goes to the
  // user's scanner (scanreq/{uid}); a scale needs a mapped device, so it is listed without one
  const schemaScanners = schema.fields.filter((f: FieldDef) => f.scanner === 'rfid' || f.scanner === 'scale').map((f) => ({ field: f.key, type: f.scanner }))
  // a setting whose field is `id:prt` / `tag:more` finds records on the table screen (scan-record.server.ts), it fills no field
  const filling = scanners.flatMap((x) => {
    const p = parseScannerField(x.field)
    return p?.then === 'fill' ? [{ field: p.field, type: str(x.type) }] : []
  })
  for (const s of [...filling, ...schemaScanners]) {
    if (s.type === 'rfid') add(s.field, { kind: 'rfid', deviceid: null, name: null, args: 'other' })
    if (s.type === 'scale' && !out[s.field]?.some((d) => d.kind === 'scale')) add(s.field, { kind: 'scale', deviceid: null, name: null, args: 'other' })
  }
  return out
}

/** The printers that can print this table's records (app/labels: those whose field the table has), online ones first. */
export async function printersFor(context: AppLoadContext, org: string, schema: TableSchema): Promise<PrinterChoice[]> {
  return printersForSchema(await orgPrinters(context, org), schema)
    .filter((p) => p.deviceid)
    .map((p) => ({ id: p.id, name: p.name || p.deviceid, deviceid: p.deviceid, template: p.template, field: p.field, online: p.online }))
    .sort((a, b) => Number(b.online) - Number(a.online))
}
