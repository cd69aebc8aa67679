/**
 * A report as a PDF (issue 24 item 4, "a CSV/PDF download"): the title, the facility, the period
 * and filters, when it was made (in the facility's time zone), then each table with its rows and
 * its totals row, page numbers in the footer. The figures are the report's own (the same Report
 * the page and the CSV show), money formatted once by money.ts `usd`. Set by the distribution
 * papers' pdfmake setup (`renderPdf`: Letter, Helvetica, no file or URL read).
 */
import { formatDateTime } from '../../format/format'
import { renderPdf } from '../distribution/pdf.server'
import { usd } from '../distribution/money'
import type { Report } from './reports.server'

export interface PdfTable {
  /** a heading above the table (a report with several tables) */
  caption?: string
  head: string[]
  rows: string[][]
  total?: string[]
  /** the columns set right-aligned (counts and amounts) */
  right: number[]
  /** shown instead of the rows when there are none */
  empty: string
}

/** A report's rows as the page's table shows them: label, count, amount, then the `extra` amounts; its Total row. */
export function reportTable(head: string[], rep: Report, extra: string[] = [], empty = 'Nothing in this period.'): PdfTable {
  const cells = (label: string, count: number, cents: number, x: Record<string, number> | undefined) => [label, String(count), usd(cents), ...extra.map((k) => usd(x?.[k] ?? 0))]
  return {
    head,
    rows: rep.rows.map((r) => cells(r.label, r.count, r.cents, r.extra)),
    total: cells('Total', rep.total.count, rep.total.cents, rep.total.extra),
    right: head.map((_, i) => i).filter((i) => i > 0),
    empty,
  }
}

function tableContent(t: PdfTable): unknown[] {
  const align = (i: number) => (t.right.includes(i) ? 'right' : 'left')
  const row = (cells: string[], style: Record<string, unknown> = {}) => cells.map((text, i) => ({ text, alignment: align(i), ...style }))
  const body = [row(t.head, { bold: true, fillColor: '#eeeeee' }), ...t.rows.map((r) => row(r)), ...(t.total ? [row(t.total, { bold: true })] : [])]
  return [
    ...(t.caption ? [{ text: t.caption, fontSize: 12, bold: true, margin: [0, 12, 0, 4] }] : []),
    { table: { headerRows: 1, dontBreakRows: true, widths: t.head.map((_, i) => (i === 0 ? '*' : 'auto')), body }, layout: 'lightHorizontalLines' },
    ...(t.rows.length ? [] : [{ text: t.empty, italics: true, color: '#555555', margin: [0, 4, 0, 0] }]),
  ]
}

export interface ReportPdfSpec {
  title: string
  facility: string
  /** the period and filters, one line each */
  filters: string[]
  tz: string
  now?: Date
  tables: PdfTable[]
  landscape?: boolean
}

export async function reportPdf(s: ReportPdfSpec): Promise<Buffer> {
  const made = `Generated ${formatDateTime(s.now ?? new Date(), { timeZone: s.tz })} (${s.tz})`
  const content = [
    { text: s.title, fontSize: 18, bold: true },
    { text: s.facility, fontSize: 12, margin: [0, 2, 0, 4] },
    ...s.filters.map((f) => ({ text: f, fontSize: 9 })),
    { text: made, fontSize: 9, color: '#555555', margin: [0, 0, 0, 10] },
    ...s.tables.flatMap(tableContent),
  ]
  return renderPdf(`${s.title} · ${s.facility}`, content, s.landscape ? 'landscape' : 'portrait')
}

/** The PDF as a download named `name` (never cached: it holds the facility's figures). */
export function pdfResponse(name: string, pdf: Buffer): Response {
  return new Response(new Uint8Array(pdf), { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${name}"`, 'Content-Length': String(pdf.length), 'Cache-Control': 'private, no-store' } })
}
