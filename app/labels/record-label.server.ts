/**
 * One record's label: load the record of the caller's organisation (the same table rights as the
 * screens and the API, app/records/access.server.ts), format its fields the way the table shows
 * them (referenced records' labels resolved: one primary-key read per reference field with a value),
 * pick the template and the printer (size, dpi), lay it out and render it as ZPL, PDF or SVG.
 * Another organisation's record is simply not found.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SessionUser } from '../auth/entitlements'
import { checkId } from '../utils/ids'
import { isCollectionName } from '../db/sql'
import type { Doc } from '../db/types'
import { formatCell } from '../format/format'
import { tableAccess } from '../records/access.server'
import { PLATFORM_ORG, ROUTES, type RouteEntry } from '../route-map'
import type { TableSchema } from '../schemas/table-schema'
import { formatOf, refOf } from '../schemas/table-schema'
import { isPlatformCollection } from '../route-map'
import { timeZoneOf } from '../facilities/facts.server'
import { badInput, notFound } from '../utils/errors'
import { labelContent, type LabelColumn } from './content'
import { layoutLabel, type Label } from './layout'
import { renderPdf } from './pdf'
import { orgPrinters, printerFor, type Printer } from './printers.server'
import { renderSvg } from './svg'
import { labelSizeOf, TEMPLATE_NAMES, templateNamed, DEFAULT_DPI } from './templates'
import { renderZpl } from './zpl'

export const LABEL_FORMATS = ['zpl', 'pdf', 'svg'] as const
export type LabelFormatName = (typeof LABEL_FORMATS)[number]

export const CONTENT_TYPES: Record<LabelFormatName, string> = {
  zpl: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
  svg: 'image/svg+xml; charset=utf-8',
}

/**
 * Who asks. `user`: a signed-in person (session or access token) working in `org`, held to the
 * tables their screens show. `user: null`: a device of `org` (a printer fetching what it was asked
 * to print; its key is checked by whoever builds the caller): any facility table of that organisation.
 */
export interface LabelCaller {
  org: string
  user: SessionUser | null
}

export interface LabelRequest {
  table: string
  id: string
  /** a built-in template name; empty: the printer's, else default */
  template?: string | null
  /** the device id of the printer the label is for (its size and dpi) */
  device?: string | null
  /** the address the server is reached at (the QR code of templates that point to the record) */
  baseUrl?: string
}

export interface RenderedLabel {
  body: string | Uint8Array<ArrayBuffer>
  contentType: string
  filename: string
  template: string
  printer: Printer | null
}

interface Target {
  schema: TableSchema
  org: string
  route: RouteEntry | undefined
}

async function targetOf(context: AppLoadContext, caller: LabelCaller, table: string): Promise<Target> {
  if (caller.user) {
    const a = await tableAccess(context, caller.user, caller.org, table)
    return { schema: a.schema, org: a.org, route: a.route }
  }
  // a device: its own organisation's facility tables only
  const schema = isCollectionName(table) && !isPlatformCollection(table) && (await context.database.schemas.hasCollection(table)) ? await context.database.schemas.get(table) : undefined
  if (!schema) throw notFound(`There is no table named "${table.slice(0, 60)}".`)
  return { schema, org: caller.org, route: ROUTES.find((r) => r.collection === table && r.kind === 'table') }
}

/** Each top-level field as the table shows it; a reference shows the referenced record's label. */
async function displayValues(context: AppLoadContext, t: Target, doc: Doc): Promise<{ columns: LabelColumn[]; values: Record<string, string> }> {
  const timeZone = await timeZoneOf(context, t.org)
  const columns: LabelColumn[] = []
  const values: Record<string, string> = {}
  for (const f of t.schema.fields) {
    if (f.type === 'array' || f.type === 'code') continue
    const format = formatOf(f)
    columns.push({ key: f.key, label: f.label, show: f.show, format })
    const v = doc[f.key]
    const ref = refOf(format)
    if (ref && typeof v === 'string' && v && isCollectionName(ref.collection) && (await context.database.schemas.hasCollection(ref.collection))) {
      const target = await context.database.store.get(isPlatformCollection(ref.collection) ? PLATFORM_ORG : t.org, ref.collection, v)
      const label = target?.[ref.labelField]
      values[f.key] = label === undefined || label === null || label === '' ? v : String(label)
    } else {
      // a label has room for the whole text: 'trim' (12 characters on the table) is not applied
      values[f.key] = formatCell(v, format.startsWith('trim') ? '' : format, { timeZone })
    }
  }
  return { columns, values }
}

/** The record's label, laid out (every renderer draws this). */
export async function recordLabel(context: AppLoadContext, caller: LabelCaller, req: LabelRequest): Promise<{ label: Label; template: string; printer: Printer | null }> {
  const target = await targetOf(context, caller, req.table)
  const id = checkId(req.id)
  const doc = await context.database.store.get(target.org, req.table, id)
  if (!doc) throw notFound('There is no record with that id.')
  const asked = (req.template ?? '').trim() || null
  if (asked && !templateNamed(asked)) throw badInput(`There is no label template named "${asked.slice(0, 60)}". Templates: ${TEMPLATE_NAMES.join(', ')}.`, { field: 'template' })
  const printers = await orgPrinters(context, target.org)
  const printer = printerFor(printers, target.schema, asked, req.device)
  if (req.device && !printer) throw notFound(`There is no printer with the device id "${req.device.slice(0, 60)}".`)
  const template = templateNamed(asked ?? printer?.template) ?? templateNamed('default')!
  const size = printer?.labelSize ?? labelSizeOf(template.size)!
  const { columns, values } = await displayValues(context, target, doc)
  const path = target.route ? `${target.route.path}/${encodeURIComponent(id)}/edit` : `/labels/${encodeURIComponent(req.table)}/${encodeURIComponent(id)}`
  const content = labelContent(template, { tableLabel: target.schema.label, columns, values, id, url: `${(req.baseUrl ?? '').replace(/\/$/, '')}${path}` })
  const label = layoutLabel(content, { widthIn: size.width, heightIn: size.height, dpi: printer?.dpi ?? DEFAULT_DPI }, `${template.name} ${content.code}`.trim())
  return { label, template: template.name, printer }
}

/**
 * renderRecordLabel(context, caller, { table, id, template }, format): the label as the printer or
 * the browser wants it. Format null: the printer's (ZPL for a ZPL printer, else PDF).
 */
export async function renderRecordLabel(context: AppLoadContext, caller: LabelCaller, req: LabelRequest, asked: LabelFormatName | null): Promise<RenderedLabel & { format: LabelFormatName }> {
  const { label, template, printer } = await recordLabel(context, caller, req)
  const format = asked ?? (printer?.zpl ? 'zpl' : 'pdf')
  const body = format === 'zpl' ? renderZpl(label) : format === 'pdf' ? renderPdf(label) : renderSvg(label)
  const base = `${req.table}-${req.id}-${template}`.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 120)
  return { body, contentType: CONTENT_TYPES[format], filename: `${base}.${format}`, template, printer, format }
}
