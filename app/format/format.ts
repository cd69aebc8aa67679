/**
 * The one place values become text (SPEC §9 and the display formats of SPEC §2.5): dates as
 * MM/DD/YYYY hh:mm A in the facility's time zone, USD with two decimals, measures, yes/no,
 * trimmed text, item counts, tag numbers, gauge colours, and formatCell, which picks one by a
 * column's `format`. Never throws; what cannot be shown is ''. Pure: server and browser alike.
 */
import { UNITS, convert, convertible, measureUnitOf, quantity, readMeasure, roundQty, type Unit } from './units'

export interface DateOptions {
  /** IANA zone of the facility; UTC when not given */
  timeZone?: string
}

// Intl formatters are expensive to build: one per zone, kept (null when the zone is not a real one).
const zoneFormats = new Map<string, Intl.DateTimeFormat | null>()
function dtf(timeZone: string): Intl.DateTimeFormat | null {
  let f = zoneFormats.get(timeZone)
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
    } catch {
      f = null
    }
    zoneFormats.set(timeZone, f)
  }
  return f
}

interface Wall {
  y: number
  mo: number
  d: number
  h: number
  mi: number
  dateOnly: boolean
}

// ISO 8601 as we store it (toISOString), as PostgreSQL prints it ('2026-03-07 14:05:00+00'), date-only, or without offset.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

function fromInstant(d: Date, timeZone: string): Wall | null {
  const f = dtf(timeZone)
  if (!f || Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) return null
  const p: Record<string, number> = {}
  for (const x of f.formatToParts(d)) if (x.type !== 'literal') p[x.type] = Number(x.value)
  return { y: p.year, mo: p.month, d: p.day, h: p.hour % 24, mi: p.minute, dateOnly: false }
}

/**
 * The wall-clock time to show. Instants (Date, epoch ms, ISO with Z or an offset) are shown in the
 * zone. A date-only ISO string is a calendar day, and an ISO date-time without offset is already
 * facility wall time (a datetime-local input): both are shown as written, never shifted by a zone.
 * Other strings are refused rather than left to each browser's Date parser.
 */
function wall(v: unknown, timeZone: string): Wall | null {
  if (v instanceof Date) return fromInstant(v, timeZone)
  if (typeof v === 'number') return Number.isFinite(v) ? fromInstant(new Date(v), timeZone) : null
  if (typeof v !== 'string') return null
  const m = ISO.exec(v.trim())
  if (!m) return null
  const [, y, mo, d, h, mi, , zone] = m
  const w: Wall = { y: +y, mo: +mo, d: +d, h: h === undefined ? 0 : +h, mi: mi === undefined ? 0 : +mi, dateOnly: h === undefined }
  const days = new Date(Date.UTC(w.y, w.mo, 0)).getUTCDate() // engines would roll 02/30 over to March
  if (!(w.mo >= 1 && w.mo <= 12 && w.d >= 1 && w.d <= days && w.h < 24 && w.mi < 60)) return null
  if (!zone) return w
  const z = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone
  return fromInstant(new Date(`${y}-${mo}-${d}T${h}:${mi}:${m[6] ?? '00'}${z}`), timeZone)
}

const two = (n: number) => String(n).padStart(2, '0')
function day(w: Wall): string {
  return w.y >= 1 && w.y <= 9999 ? `${two(w.mo)}/${two(w.d)}/${String(w.y).padStart(4, '0')}` : ''
}

/** MM/DD/YYYY hh:mm A, e.g. 03/07/2026 02:05 PM. A date-only value gives just MM/DD/YYYY. */
export function formatDateTime(v: unknown, o: DateOptions = {}): string {
  const w = wall(v, o.timeZone || 'UTC')
  if (!w || !day(w)) return ''
  if (w.dateOnly) return day(w)
  return `${day(w)} ${two(w.h % 12 || 12)}:${two(w.mi)} ${w.h < 12 ? 'AM' : 'PM'}`
}

/** MM/DD/YYYY, e.g. 03/07/2026. */
export function formatDate(v: unknown, o: DateOptions = {}): string {
  const w = wall(v, o.timeZone || 'UTC')
  return w ? day(w) : ''
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 })
const plain = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 })

/** USD with two decimals: $1,234.50, -$12.00. Rounds half away from zero on the decimal value (1.005 → $1.01). */
export function formatCurrency(v: unknown): string {
  const n = quantity(v)
  if (n === null) return ''
  // 1.005 is 1.00499999… in binary: round the cents at 15 significant digits first
  const cents = Math.round(Number((Math.abs(n) * 100).toPrecision(15)))
  return usd.format((Math.sign(n) * cents) / 100 || 0) // `|| 0`: no "-$0.00"
}

/** A number with thousands separators and at most 3 decimals: 1,250.5. */
export function formatNumber(v: unknown): string {
  const n = quantity(v)
  return n === null ? '' : plain.format(n)
}

/**
 * A measure { qty, unit } as "12.5 g", "1,250 g", "3 oz", "1 unit"; an unknown unit is shown as written.
 * With `inUnit` (a column's `measure:<unit>`), a measure in another unit of the same kind is shown converted.
 */
export function formatMeasure(v: unknown, inUnit?: Unit | null): string {
  let m = readMeasure(v)
  if (m && inUnit && m.unit !== inUnit && convertible(m.unit, inUnit)) m = { qty: roundQty(convert(m.qty, m.unit, inUnit)), unit: inUnit }
  if (m) {
    const one = UNITS[m.unit].dimension === 'count' && Math.abs(m.qty) === 1
    return `${plain.format(m.qty)} ${one ? m.unit.replace(/s$/, '') : m.unit}`
  }
  if (!v || typeof v !== 'object') return ''
  const { qty, unit } = v as { qty?: unknown; unit?: unknown }
  const n = formatNumber(qty)
  const u = typeof unit === 'string' ? unit.trim() : ''
  return n && u ? `${n} ${u}` : n
}

/** SPEC §2.5 check cells and status dots: true, 'yes' and 'true' (any case) are yes; everything else no. */
export function isYes(v: unknown): boolean {
  return v === true || (typeof v === 'string' && ['yes', 'true'].includes(v.trim().toLowerCase()))
}
export const formatCheck = (v: unknown): string => (isYes(v) ? 'Yes' : 'No')

export const TRIM_LENGTH = 12
/** Values longer than 12 characters are shortened to 12 and '…' (SPEC §9); counts characters, not UTF-16 units. */
export function trimText(v: unknown, max = TRIM_LENGTH): string {
  const chars = [...text(v)]
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join('')
}

/** An array as its item count: "0 items", "1 item", "3 items". */
export function formatCount(v: unknown): string {
  const n = Array.isArray(v) ? v.length : 0
  return `${n} item${n === 1 ? '' : 's'}`
}

/** Tax state codes of the finance tables: t pending, d due, p paid. */
export const TAX_STATE_LABELS: Readonly<Record<string, string>> = { t: 'Pending', d: 'Due', p: 'Paid' }
export const formatTaxState = (v: unknown): string => (typeof v === 'string' ? TAX_STATE_LABELS[v.trim().toLowerCase()] ?? v : text(v))

/** Tag numbers are zero-padded, 4 digits by default (SPEC §9): padNumber(7) → '0007'; '' when not a number. */
export function padNumber(n: number, width = 4): string {
  if (!Number.isFinite(n)) return ''
  const s = String(Math.trunc(Math.abs(n))).padStart(width, '0')
  return n <= -1 ? `-${s}` : s
}

export type GaugeColour = 'red' | 'orange' | 'yellow' | 'green' | 'blue'
export interface Thresholds {
  low: number
  med: number
  warn: number
  error: number
}
/** SPEC §9, strictly above each threshold: above error red; above warn orange; above med yellow; above low green; otherwise blue. */
export function gaugeColour(value: number, t: Thresholds): GaugeColour {
  if (value > t.error) return 'red'
  if (value > t.warn) return 'orange'
  if (value > t.med) return 'yellow'
  if (value > t.low) return 'green'
  return 'blue'
}
/** Percent is value over max, clamped to 0–100; 0 when max is 0, negative or missing. */
export function gaugePercent(value: number, max?: number): number {
  if (!Number.isFinite(value) || max === undefined || !Number.isFinite(max) || max <= 0) return 0
  return Math.min(100, Math.max(0, (value / max) * 100))
}

function text(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'object') return Array.isArray(v) ? formatCount(v) : 'qty' in v ? formatMeasure(v) : JSON.stringify(v)
  return String(v)
}

/**
 * A cell's text by its column format (SPEC §2.5): date, currency, measure, check, status, trim,
 * array, tax. Anything else (id:<table>:<field>, image, pdf, qrcode, none) gives the raw value as
 * text: the table renders those as links, images and codes.
 */
export function formatCell(v: unknown, format: string | undefined, o: DateOptions = {}): string {
  switch ((format ?? '').split(':')[0]) {
    case 'date':
      return formatDateTime(v, o)
    case 'currency':
      return formatCurrency(v)
    case 'measure':
      return formatMeasure(v, measureUnitOf(format))
    case 'check':
    case 'status':
      return formatCheck(v)
    case 'trim':
      return trimText(v)
    case 'array':
      return formatCount(v)
    case 'tax':
    case 'taxstate':
      return formatTaxState(v)
    default:
      return text(v)
  }
}
