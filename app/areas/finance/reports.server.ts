/**
 * The accountant's figures (issue 24 item 4), each one SQL statement over the documents, in the
 * facility's time zone, in integer cents:
 * - sales: orders that shipped (Shipped, Delivered), dated by when they shipped, net of discounts
 *   and before tax (the order's subtotal; by product, the lines' totals, which add up to it);
 * - tax: per month, tax invoiced (invoices by their date), tax collected (the tax portions of
 *   payments by their date) and still due (the tax of that month's invoices not collected yet,
 *   whenever their payments came: never the month's invoiced minus the month's collected);
 * - ageing: open invoices' balances by days past due.
 * Each report's total is the sum of its rows (computed from the rows, never apart from them).
 * Documents written before issue 24 carry dollars only: their cents are round(dollars × 100).
 */
import type { Database } from '../../db/index.server'
import { isIsoDate } from '../../format/date-ranges'
import { AGEING, ageingBucket } from '../distribution/rules'

export type SalesBy = 'client' | 'product' | 'day' | 'month'
export interface Period {
  from: string // YYYY-MM-DD, facility time
  to: string
  tz: string
}
export interface ReportRow {
  key: string
  label: string
  count: number
  cents: number
  extra?: Record<string, number>
}
export interface Report {
  rows: ReportRow[]
  total: { count: number; cents: number; extra?: Record<string, number> }
}

const SHIPPED = `o.doc->>'status' IN ('Shipped', 'Delivered', 'In Transit')`
const SHIP_AT = `coalesce(o.doc->>'shippedAt', o.doc->>'orderDate')::timestamptz`
const SUB = `coalesce((o.doc->>'subtotalCents')::bigint, round((o.doc->>'subtotal')::numeric * 100)::bigint, 0)`
const LINE = `coalesce((l->>'totalCents')::bigint, round((l->>'total')::numeric * 100)::bigint, 0)`
const inPeriod = (expr: string) => `(${expr} AT TIME ZONE $2)::date BETWEEN $3::date AND $4::date`

function totalOf(rows: ReportRow[]): Report['total'] {
  const extra: Record<string, number> = {}
  for (const r of rows) for (const [k, v] of Object.entries(r.extra ?? {})) extra[k] = (extra[k] ?? 0) + v
  return { count: rows.reduce((s, r) => s + r.count, 0), cents: rows.reduce((s, r) => s + r.cents, 0), ...(Object.keys(extra).length ? { extra } : {}) }
}

export function salesSql(by: SalesBy): string {
  if (by === 'product') {
    return `SELECT coalesce(l->>'product', '') AS key, coalesce(max(p.doc->>'name'), max(l->>'name'), '(no product)') AS label, count(DISTINCT o.id)::int AS count, sum(${LINE})::bigint AS cents
      FROM c_dis_orders o CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(o.doc->'items') = 'array' THEN o.doc->'items' ELSE '[]'::jsonb END) l
      LEFT JOIN c_dis_products p ON p.org = o.org AND p.id = l->>'product'
      WHERE o.org = $1 AND ${SHIPPED} AND ${inPeriod(SHIP_AT)} AND ($5::text = '' OR o.doc->>'client' = $5)
      GROUP BY 1 ORDER BY cents DESC, key`
  }
  const key = by === 'client' ? `coalesce(o.doc->>'client', '')` : by === 'day' ? `to_char((${SHIP_AT} AT TIME ZONE $2)::date, 'YYYY-MM-DD')` : `to_char((${SHIP_AT} AT TIME ZONE $2)::date, 'YYYY-MM')`
  const label = by === 'client' ? `coalesce(max(c.doc->>'name'), '(no client)')` : `${key}`
  const join = by === 'client' ? `LEFT JOIN c_set_clients c ON c.org = o.org AND c.id = o.doc->>'client'` : ''
  return `SELECT ${key} AS key, ${label} AS label, count(*)::int AS count, sum(${SUB})::bigint AS cents,
      sum(coalesce((o.doc->>'taxCents')::bigint, round((o.doc->>'exciseTax')::numeric * 100)::bigint, 0))::bigint AS tax
    FROM c_dis_orders o ${join}
    WHERE o.org = $1 AND ${SHIPPED} AND ${inPeriod(SHIP_AT)} AND ($5::text = '' OR o.doc->>'client' = $5)
    GROUP BY ${by === 'client' ? '1' : '1, 2'} ORDER BY ${by === 'client' ? 'cents DESC, key' : 'key'}`
}

export async function salesReport(database: Database, org: string, by: SalesBy, p: Period, client = ''): Promise<Report> {
  const r = await database.db.query<{ key: string; label: string; count: number; cents: string | number; tax?: string | number }>(salesSql(by), [org, p.tz, p.from, p.to, client])
  const rows = r.rows.map((x) => ({ key: x.key, label: x.label, count: Number(x.count), cents: Number(x.cents), ...(x.tax !== undefined ? { extra: { tax: Number(x.tax) } } : {}) }))
  return { rows, total: totalOf(rows) }
}

/** Per month of the period: tax invoiced, collected, and invoiced but not yet collected. */
export async function taxReport(database: Database, org: string, p: Period): Promise<Report> {
  const invTax = `coalesce((o.doc->>'taxCents')::bigint, round((coalesce((o.doc->>'exciseTax')::numeric, 0) + coalesce((o.doc->>'salesTax')::numeric, 0)) * 100)::bigint)`
  const payTax = `coalesce((doc->>'taxCents')::bigint, round((doc->>'taxAmount')::numeric * 100)::bigint, 0)`
  // invoices by their month, with the tax of theirs still not collected (their payments' tax portions, whenever paid)
  const inv = await database.db.query<{ key: string; n: number; cents: string; still: string }>(
    `SELECT to_char(((o.doc->>'invoiceDate')::timestamptz AT TIME ZONE $2)::date, 'YYYY-MM') AS key, count(*)::int AS n,
       sum(${invTax})::bigint AS cents, sum(${invTax} - coalesce(pd.tax, 0))::bigint AS still
     FROM c_tax_receivables o
     LEFT JOIN (SELECT doc->>'invoice' AS no, sum(${payTax})::bigint AS tax FROM c_fin_payments WHERE org = $1 GROUP BY 1) pd ON pd.no = o.doc->>'invoiceNo'
     WHERE o.org = $1 AND ${inPeriod(`(o.doc->>'invoiceDate')::timestamptz`)} GROUP BY 1`,
    [org, p.tz, p.from, p.to],
  )
  // tax collected: the tax portions of payments by the month they were paid
  const col = await database.db.query<{ key: string; cents: string }>(
    `SELECT to_char(((doc->>'paid')::timestamptz AT TIME ZONE $2)::date, 'YYYY-MM') AS key, sum(${payTax})::bigint AS cents
     FROM c_fin_payments o WHERE org = $1 AND ${inPeriod(`(o.doc->>'paid')::timestamptz`)} GROUP BY 1`,
    [org, p.tz, p.from, p.to],
  )
  const months = [...new Set([...inv.rows.map((r) => r.key), ...col.rows.map((r) => r.key)])].sort()
  const rows = months.map((m) => {
    const i = inv.rows.find((r) => r.key === m)
    const collected = Number(col.rows.find((r) => r.key === m)?.cents ?? 0)
    return { key: m, label: m, count: Number(i?.n ?? 0), cents: Number(i?.cents ?? 0), extra: { collected, due: Number(i?.still ?? 0) } }
  })
  return { rows, total: totalOf(rows) }
}

export interface OpenInvoice {
  id: string
  invoiceNo: string
  client: string
  clientName: string
  invoiceDate: string
  dueDate: string
  totalCents: number
  balanceCents: number
  taxState: string
  bucket: (typeof AGEING)[number]
  invoicePdf: string
  order: string
}

export async function openInvoices(database: Database, org: string, client = '', now = new Date()): Promise<OpenInvoice[]> {
  const r = await database.db.query<{ id: string; doc: Record<string, unknown>; name: string | null }>(
    `SELECT o.id, o.doc, c.doc->>'name' AS name FROM c_tax_receivables o LEFT JOIN c_set_clients c ON c.org = o.org AND c.id = o.doc->>'client'
     WHERE o.org = $1 AND coalesce((o.doc->>'balanceCents')::bigint, round((o.doc->>'balance')::numeric * 100)::bigint, 0) > 0 AND ($2::text = '' OR o.doc->>'client' = $2)
     ORDER BY o.doc->>'dueDate', o.id`,
    [org, client],
  )
  return r.rows.map(({ id, doc: d, name }) => {
    const total = typeof d.totalCents === 'number' ? d.totalCents : Math.round((Number(d.amount ?? 0) + Number(d.exciseTax ?? 0) + Number(d.salesTax ?? 0)) * 100)
    return {
      id,
      invoiceNo: String(d.invoiceNo ?? ''),
      client: String(d.client ?? ''),
      clientName: name ?? '',
      invoiceDate: String(d.invoiceDate ?? ''),
      dueDate: String(d.dueDate ?? ''),
      totalCents: total,
      balanceCents: typeof d.balanceCents === 'number' ? d.balanceCents : Math.round(Number(d.balance ?? 0) * 100),
      taxState: String(d.taxState ?? ''),
      bucket: ageingBucket(String(d.dueDate ?? d.invoiceDate ?? now.toISOString()), now),
      invoicePdf: String(d.invoicePdf ?? ''),
      order: String(d.order ?? ''),
    }
  })
}

/** Open balances per ageing bucket: the rows are the buckets, each the sum of its invoices. */
export function ageingReport(open: OpenInvoice[]): Report {
  const rows = AGEING.map((b) => {
    const inB = open.filter((i) => i.bucket === b)
    return { key: b, label: b, count: inB.length, cents: inB.reduce((s, i) => s + i.balanceCents, 0) }
  })
  return { rows, total: totalOf(rows) }
}

/** "YYYY-MM-DD" in `tz` */
export function dayIn(tz: string, d = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d)
  return parts
}

/** The period in the URL (`from`, `to`), else this month so far, in the facility's time zone. */
export function periodOf(url: URL, tz: string): Period {
  const ok = (s: string | null) => (s && isIsoDate(s) ? s : null) // a real day only: PostgreSQL refuses 2026-02-30
  const today = dayIn(tz)
  const to = ok(url.searchParams.get('to')) ?? today
  const from = ok(url.searchParams.get('from')) ?? `${to.slice(0, 8)}01`
  return from <= to ? { from, to, tz } : { from: to, to: from, tz }
}

const csvCell = (v: string | number) => {
  const s = String(v)
  return /[",\n\r]/.test(s) || /^[=+\-@]/.test(s) ? `"${(/^[=+\-@]/.test(s) ? `'${s}` : s).replace(/"/g, '""')}"` : s
}
const money = (c: number) => (c / 100).toFixed(2)

/** A report as CSV: a header, its rows, its total line (money as dollars with two decimals). */
export function reportCsv(head: string[], rep: Report, extraKeys: string[] = []): string {
  const lines = [head.map(csvCell).join(',')]
  for (const r of rep.rows) lines.push([r.label, r.count, money(r.cents), ...extraKeys.map((k) => money(r.extra?.[k] ?? 0))].map(csvCell).join(','))
  lines.push(['Total', rep.total.count, money(rep.total.cents), ...extraKeys.map((k) => money(rep.total.extra?.[k] ?? 0))].map(csvCell).join(','))
  return `${lines.join('\r\n')}\r\n`
}
