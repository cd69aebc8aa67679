/**
 * The visitor log of a date range as a regulator asks for it: CSV (one row a visit, formula-safe
 * cells) and PDF (a landscape table with the facility, the range and when it was made), and the
 * evacuation list (who is on site now) as PDF. Times in the facility's zone.
 */
import type { Doc } from '../../db/types'
import { formatDateTime } from '../../format/format'
import { pdfmake } from '../documents/pdf.server'

export const COLUMNS: Array<{ label: string; value: (v: Doc, tz: string) => string }> = [
  { label: 'Badge', value: (v) => String(v.badge ?? '') },
  { label: 'Visitor', value: (v) => String(v.visitor ?? '') },
  { label: 'Company', value: (v) => String(v.company ?? '') },
  { label: 'Host', value: (v) => String(v.host_name ?? '') },
  { label: 'Purpose', value: (v) => String(v.purpose ?? '') },
  { label: 'ID type', value: (v) => String(v.id_type ?? '') },
  { label: 'ID checked', value: (v) => (v.id_checked === 'yes' ? 'Yes' : 'No') },
  { label: 'Agreement', value: (v) => (v.nda_signed === 'yes' ? 'Accepted' : 'No') },
  { label: 'Signed in', value: (v, tz) => (v.signed_in ? formatDateTime(v.signed_in, { timeZone: tz }) : '') },
  { label: 'Signed out', value: (v, tz) => (v.signed_out ? formatDateTime(v.signed_out, { timeZone: tz }) : '') },
]

const cell = (v: string) => {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export function visitsCsv(visits: Doc[], tz: string): string {
  const lines = [COLUMNS.map((c) => c.label).join(',')]
  for (const v of visits) lines.push(COLUMNS.map((c) => cell(c.value(v, tz))).join(','))
  return lines.join('\r\n') + '\r\n'
}

export async function visitsPdf(title: string, subtitle: string, visits: Doc[], tz: string, columns = COLUMNS): Promise<Buffer> {
  const body = [columns.map((c) => ({ text: c.label, bold: true, fillColor: '#eeeeee' })), ...visits.map((v) => columns.map((c) => c.value(v, tz)))]
  const dd = {
    pageSize: 'LETTER',
    pageOrientation: 'landscape',
    pageMargins: [30, 40, 30, 40],
    defaultStyle: { font: 'Helvetica', fontSize: 9 },
    info: { title },
    content: [
      { text: title, fontSize: 16, bold: true },
      { text: subtitle, margin: [0, 2, 0, 10], color: '#444444' },
      visits.length ? { table: { headerRows: 1, widths: columns.map(() => 'auto'), body } } : { text: 'No visits.', italics: true },
      { text: `${visits.length} visit${visits.length === 1 ? '' : 's'}`, margin: [0, 8, 0, 0] },
    ],
    footer: (page: number, pages: number) => ({ text: `Page ${page} of ${pages}`, alignment: 'center', fontSize: 8, margin: [0, 10, 0, 0] }),
  }
  return pdfmake().createPdf(dd).getBuffer()
}
