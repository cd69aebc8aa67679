/**
 * The built-in label templates, addressed by name (a printer's `template`, a print request's
 * `template`, `?template=` of GET /labels/…). A template does not name one table: it says which
 * fields to look for (the first the record has a value for wins), so one template serves every
 * table that has such fields. The names are those the demo printers use (app/seed/records/business.ts).
 */

export interface LabelTemplate {
  name: string
  description: string
  /** the size when the printer names none (one of LABEL_SIZES) */
  size: string
  /** the code: the barcode, the large text and (qr: 'code') the QR code; the first of these fields with a value, else the record id */
  code: string[]
  /** the title line: the first of these fields with a value, else the table's label */
  title: string[]
  /** fields printed as "Label: value", in this order (those the table has, with a value) … */
  fields: string[]
  /** … filled up with the table's shown fields to this many lines (fewer when they do not fit) */
  lines: number
  barcode: boolean
  /** what the QR code holds: the code, the address of the record's edit form, or no QR code */
  qr: 'code' | 'url' | 'none'
}

/** Fields that identify a record on a label, most specific first (tags, then other codes). */
export const CODE_FIELDS = ['tag', 'mtag', 'package_tag', 'Label', 'barcode', 'manifest_no', 'sku', 'sampleId']

/** The label sizes of the printers table (set_printers.label_size). */
export const LABEL_SIZES = ['1" x 3"', '2" x 1"', '2" x 4"', '4" x 2"', '4" x 6"'] as const
export const DEFAULT_DPI = 203
/** Print heads sold: 152, 203, 300 and 600 dpi; anything in this range is taken. */
export const DPI_RANGE = [100, 600] as const

const T = (t: LabelTemplate) => t

export const TEMPLATES: Record<string, LabelTemplate> = {
  default: T({ name: 'default', description: 'Any record: title, code, four fields, barcode and QR code', size: '4" x 2"', code: CODE_FIELDS, title: ['name', 'product', 'item', 'title'], fields: [], lines: 4, barcode: true, qr: 'code' }),
  plant_tag_rfid: T({ name: 'plant_tag_rfid', description: 'Plant tag: tag, strain, room, barcode and QR code', size: '1" x 3"', code: ['tag', 'mtag', 'Label', ...CODE_FIELDS], title: ['strain', 'StrainName', 'name'], fields: ['room', 'phase', 'planted', 'LocationName'], lines: 2, barcode: true, qr: 'code' }),
  package_label_4x2: T({ name: 'package_label_4x2', description: 'Package label: tag, product, strain, quantity, dates, barcode and QR code', size: '4" x 2"', code: ['tag', 'package_tag', 'Label', ...CODE_FIELDS], title: ['product', 'item', 'ProductName', 'name'], fields: ['strain', 'category', 'qty', 'Quantity', 'packaged', 'PackagedDate', 'labStatus', 'harvest'], lines: 5, barcode: true, qr: 'code' }),
  retail_label_2x4: T({ name: 'retail_label_2x4', description: 'Retail label: product, brand, strain, potency, price, barcode and QR code', size: '2" x 4"', code: ['sku', 'tag', ...CODE_FIELDS], title: ['name', 'product'], fields: ['brand', 'strain', 'thc', 'cbd', 'unitWeight', 'msrp', 'price'], lines: 4, barcode: true, qr: 'code' }),
  preroll_tube_1x3: T({ name: 'preroll_tube_1x3', description: 'Pre-roll tube: product, strain, barcode and QR code', size: '1" x 3"', code: ['sku', 'tag', ...CODE_FIELDS], title: ['name', 'product'], fields: ['strain', 'thc'], lines: 2, barcode: true, qr: 'code' }),
  visitor_badge: T({ name: 'visitor_badge', description: 'Badge: name, company, role and a QR code to the record', size: '2" x 4"', code: ['badge', 'email', '_id'], title: ['name', 'visitor', 'fullname', 'firstname'], fields: ['company', 'role', 'title', 'host_name', 'host', 'visit_date'], lines: 3, barcode: false, qr: 'url' }),
  manifest_4x6: T({ name: 'manifest_4x6', description: 'Shipping manifest: number, parties, dates, every field that fits, barcode and QR code to the record', size: '4" x 6"', code: ['manifest_no', 'ManifestNumber', ...CODE_FIELDS], title: ['name', 'client', 'destination', 'RecipientFacilityName'], fields: ['client', 'driver', 'vehicle', 'departure', 'arrival'], lines: 14, barcode: true, qr: 'url' }),
}

export const TEMPLATE_NAMES = Object.keys(TEMPLATES)

/** A template by name; '' or nothing is `default`; an unknown name is null (the caller says which exist). */
export function templateNamed(name: string | null | undefined): LabelTemplate | null {
  const n = (name ?? '').trim()
  if (!n) return TEMPLATES.default
  return Object.prototype.hasOwnProperty.call(TEMPLATES, n) ? TEMPLATES[n] : null
}

/**
 * Inches across and down. A size is read as it is written ('4" x 6"': 4 across, 6 down), except
 * that a label no side of which is over 4" is laid out landscape (longer side across): a
 * 1" x 3" tag prints its text along the 3" side. Null for anything that is not "<w>" x "<h>".
 */
export function labelSizeOf(size: string | null | undefined): { width: number; height: number } | null {
  const m = /^\s*(\d{1,2}(?:\.\d{1,3})?)\s*(?:"|in)?\s*[x×]\s*(\d{1,2}(?:\.\d{1,3})?)\s*(?:"|in)?\s*$/i.exec(size ?? '')
  if (!m) return null
  const [a, b] = [Number(m[1]), Number(m[2])]
  if (!(a >= 0.5 && b >= 0.5 && a <= 12 && b <= 12)) return null
  return Math.max(a, b) <= 4 ? { width: Math.max(a, b), height: Math.min(a, b) } : { width: a, height: b }
}

/** The printer's dpi when it is a real one, else 203. */
export function dpiOf(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN
  return Number.isInteger(n) && n >= DPI_RANGE[0] && n <= DPI_RANGE[1] ? n : DEFAULT_DPI
}
