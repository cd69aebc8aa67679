/**
 * A scan on a table screen (SPEC §3 scanner settings `id:prt` / `id:more`, §4 scanner request and
 * printing; decision 060): the user's scanner (and a reader mapped to the field) is asked for a code,
 * the table's record whose field holds that code is found in the user's facility, and then either its
 * label goes to the table's printer (`prt`) or the record is opened (`more`).
 */
import type { AppLoadContext } from '@remix-run/node'
import type { TableAccess } from '../records/access.server'
import { AppError } from '../utils/errors'
import { scanCode, requestPrint } from './flows.server'
import { fieldDevices, printersFor, type FieldDevice } from './lookup.server'
import { tableScan, type ScannerField } from '../forms/scanner-setting'

/** The table's scan-to-record setting (its first RFID setting with `:prt` or `:more`), or null. */
export async function tableScanSetting(context: AppLoadContext, org: string, collection: string): Promise<ScannerField | null> {
  const { store, schemas } = context.database
  if (!(await schemas.hasCollection('sen_scanner_settings'))) return null
  return tableScan(await store.find(org, 'sen_scanner_settings', { table: collection }, 50))
}

export type ScanOutcome = { code: string; id: string; then: 'prt'; printer: string } | { code: string; id: string; then: 'more'; href: string }

export async function scanToRecord(context: AppLoadContext, access: Pick<TableAccess, 'org' | 'collection' | 'schema'>, screen: string, uid: string, origin: string, signal?: AbortSignal): Promise<ScanOutcome> {
  const setting = await tableScanSetting(context, access.org, access.collection)
  if (!setting) throw new AppError('NOT_FOUND', 'No scanner is set up to find records of this table. An admin can add one under Settings → Scanner Settings (field id:prt or id:more).')
  const mapped = (await fieldDevices(context, access.org, access.collection, access.schema))[setting.field]?.find((d) => d.kind === 'rfid')
  const device: FieldDevice = mapped ?? { kind: 'rfid', deviceid: null, name: null, args: 'other' }
  const { code } = await scanCode(context, access.org, uid, device, signal)
  const { store } = context.database
  const found = setting.field === 'id' ? await store.get(access.org, access.collection, code) : (await store.find(access.org, access.collection, { [setting.field]: code }, 1))[0]
  if (!found) {
    const label = access.schema.fields.find((f) => f.key === setting.field)?.label ?? setting.field
    throw new AppError('NOT_FOUND', `No ${access.schema.label} record has ${label} ${code}.`)
  }
  const id = String(found._id)
  if (setting.then === 'more') return { code, id, then: 'more', href: `${screen}/${encodeURIComponent(id)}/edit` }
  const printer = (await printersFor(context, access.org, access.schema))[0]
  if (!printer) throw new AppError('NOT_FOUND', 'No label printer is set up for this table. An admin can add one under Settings → Printers.')
  requestPrint(context, access.org, printer, access.collection, id, origin)
  return { code, id, then: 'prt', printer: printer.name }
}
