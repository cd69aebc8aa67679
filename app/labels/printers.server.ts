/**
 * Which printers serve a table, and the print request a print button publishes (bus contract:
 * `{org}/request/{deviceID}` with `{ cmd: 'print', template, id, table, server, org }`).
 *
 * A printer (set_printers: field, deviceid, template, zpl, label_size, dpi) serves the tables
 * whose schema has a field named by its `field` (SPEC §3: "Printer: field, deviceid, template";
 * the demo printers name mtag, tag, package_tag, label, manifest_no, sku). When none matches but
 * the table has a code field (CODE_FIELDS) and the organisation has any printer, the preview still
 * shows, with the default template.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { Doc } from '../db/types'
import type { TableSchema } from '../schemas/table-schema'
import { CODE_FIELDS, dpiOf, labelSizeOf, TEMPLATES, templateNamed } from './templates'

export interface Printer {
  id: string
  name: string
  deviceid: string
  field: string
  /** the template name as stored (may name no built-in template: the label is then refused with the list) */
  template: string
  zpl: boolean
  labelSize: { width: number; height: number } | null
  dpi: number
  online: boolean
}

export const PRINTERS_TABLE = 'set_printers'
const MAX_PRINTERS = 200

const str = (v: unknown) => (typeof v === 'string' ? v : '')
const yes = (v: unknown) => v === 'yes' || v === true

export function printerOf(d: Doc): Printer {
  return {
    id: d._id,
    name: str(d.name),
    deviceid: str(d.deviceid),
    field: str(d.field),
    template: str(d.template),
    zpl: yes(d.zpl),
    labelSize: labelSizeOf(str(d.label_size)),
    dpi: dpiOf(d.dpi),
    online: d.online === undefined ? true : yes(d.online),
  }
}

/** Every printer of the organisation (IsUsed = no left out). */
export async function orgPrinters(context: AppLoadContext, org: string): Promise<Printer[]> {
  if (!(await context.database.schemas.hasCollection(PRINTERS_TABLE))) return []
  const rows = await context.database.store.find(org, PRINTERS_TABLE, {}, MAX_PRINTERS)
  return rows.filter((d) => d.IsUsed !== 'no').map(printerOf)
}

/** The printers whose field the table has, in the order stored. */
export const printersForSchema = (printers: Printer[], schema: TableSchema): Printer[] => printers.filter((p) => p.field && schema.fields.some((f) => f.key === p.field))

export const hasCodeField = (schema: TableSchema) => schema.fields.some((f) => CODE_FIELDS.includes(f.key))

export interface LabelChoice {
  /** the template to render (a built-in name) */
  template: string
  /** the printer the label is for (size, dpi, ZPL or PDF), or null: the template's own size at 203 dpi */
  printer: Printer | null
}

/**
 * What the edit form offers for this table: the first printer serving it (its template when that
 * is a built-in one, else default), the default template when only the fallback applies, null when
 * no printer could print it.
 */
export function labelChoiceFor(printers: Printer[], schema: TableSchema): LabelChoice | null {
  const serving = printersForSchema(printers, schema)
  if (serving.length) return { template: templateNamed(serving[0].template) ? serving[0].template || 'default' : 'default', printer: serving[0] }
  if (printers.length && hasCodeField(schema)) return { template: TEMPLATES.default.name, printer: null }
  return null
}

/**
 * The printer a label is rendered for (its size and dpi): the one with this device id; else one
 * serving the table with this template (no template asked: the first serving it); else none, and
 * the template's own size at 203 dpi.
 */
export function printerFor(printers: Printer[], schema: TableSchema, template: string | null, device?: string | null): Printer | null {
  if (device) return printers.find((p) => p.deviceid === device) ?? null
  const serving = printersForSchema(printers, schema)
  return (template ? serving.find((p) => p.template === template) : serving[0]) ?? null
}

export interface PrintRequest {
  cmd: 'print'
  template: string
  id: string
  table: string
  server: string
  org: string
}

/** The payload of `{org}/request/{printer.deviceid}` for a print button (the bus contract). */
export function printRequest(printer: Pick<Printer, 'template'>, target: { table: string; id: string }, server: string, org: string): PrintRequest {
  return { cmd: 'print', template: printer.template || TEMPLATES.default.name, id: target.id, table: target.table, server, org }
}

/** Where a printer (or anyone allowed) fetches the label: GET /labels/{table}/{id}?template=&format=. */
export function labelPath(target: { table: string; id: string }, template: string, format: 'zpl' | 'pdf' | 'svg'): string {
  const q = new URLSearchParams({ template, format })
  return `/labels/${encodeURIComponent(target.table)}/${encodeURIComponent(target.id)}?${q}`
}
