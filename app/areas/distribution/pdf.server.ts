/**
 * The shipped order's papers (issue 24 items 2 and 3): the transfer manifest (from, to, driver and
 * vehicle, each package's tag, item and quantity) and the invoice (number, dates, terms, bill to,
 * lines with price, discount and total, the subtotal, each tax and the total: the order's own
 * cents, so the PDF says what the screens say). Set with pdfmake (documents/pdf.server.ts, the
 * standard Helvetica, no file or URL read), stored in the facility's files (`manifests/`,
 * `invoices/`) through the one file storage; the links are `/getfiles/{org}/{name}?subdir=`.
 */
import { Readable } from 'node:stream'
import type { Doc } from '../../db/types'
import { fileStorage } from '../../files/storage.server'
import { fileRef } from '../../seed/kit'
import { pdfmake } from '../documents/pdf.server'
import { fmtMilli, usd } from './money'
import type { CartLine } from './cart.server'
import type { AssignedPackage, Facility } from './orders.server'

export interface PaperFacts {
  fac: Facility
  order: Doc
  client: Doc
  invoiceNo: string
  manifestNo: string
  invoiceDate: Date
  dueDate: Date
  terms: string
  vehicle: Record<string, unknown>
}

const day = (d: Date | string) => new Date(d).toISOString().slice(0, 10)
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v))
const doc = (title: string, content: unknown[], pageOrientation: 'portrait' | 'landscape' = 'portrait') => ({
  info: { title, creator: 'Canopy' },
  pageSize: 'LETTER',
  pageOrientation,
  pageMargins: [54, 54, 54, 54],
  defaultStyle: { font: 'Helvetica', fontSize: 10, lineHeight: 1.15 },
  footer: (page: number, pages: number) => ({ text: `${title} · page ${page} of ${pages}`, alignment: 'center', fontSize: 8, color: '#666666', margin: [0, 20, 0, 0] }),
  content,
})
const party = (title: string, name: string, lines: string[]) => ({ stack: [{ text: title, bold: true, fontSize: 9, color: '#555555' }, { text: name, bold: true }, ...lines.filter(Boolean).map((t) => ({ text: t }))] })
const clientLines = (c: Doc) => [`License ${str(c.license)} (${str(c.client_type)})`, str(c.address), `${str(c.city)}, ${str(c.state)} ${str(c.zip)}`.trim()]

export function invoiceContent(f: PaperFacts): unknown[] {
  const lines = (f.order.items as CartLine[]) ?? []
  const taxes = (f.order.taxes as Array<{ name: string; rateMilli: number; cents: number }>) ?? []
  const body = [
    ['Item', 'Package', 'Qty', 'Unit price', 'Discount', 'Line total'].map((t) => ({ text: t, bold: true })),
    ...lines.map((l) => [l.name, l.tag || '-', `${fmtMilli(l.qtyMilli)} ${l.unit}`, usd(l.priceCents), l.discountBp ? `${l.discountBp / 100}%` : '-', { text: usd(l.totalCents), alignment: 'right' }]),
  ]
  const sum = [
    ['Subtotal', usd(Number(f.order.subtotalCents))],
    ...taxes.map((t) => [`${t.name} (${t.rateMilli / 1000}%)`, usd(t.cents)]),
    ['Total', usd(Number(f.order.totalCents))],
  ]
  return [
    { columns: [{ text: 'INVOICE', fontSize: 22, bold: true }, { stack: [`Invoice ${f.invoiceNo}`, `Date ${day(f.invoiceDate)}`, `Due ${day(f.dueDate)} (${f.terms})`, `Order ${str(f.order.orderNo)}`], alignment: 'right' }] },
    { columns: [party('From', f.fac.name, [`License ${f.fac.license}`]), party('Bill to', str(f.client.name), clientLines(f.client))], margin: [0, 16, 0, 16] },
    { table: { headerRows: 1, widths: ['*', 'auto', 'auto', 'auto', 'auto', 'auto'], body }, layout: 'lightHorizontalLines' },
    { table: { widths: ['*', 'auto'], body: sum.map(([a, b], i) => [{ text: a, bold: i === sum.length - 1, alignment: 'right' }, { text: b, bold: i === sum.length - 1, alignment: 'right' }]) }, layout: 'noBorders', margin: [0, 10, 0, 0] },
    { text: `Terms: ${f.terms}. Please quote ${f.invoiceNo} with your payment (cash, check or ACH).`, margin: [0, 16, 0, 0], fontSize: 9 },
  ]
}

export function manifestContent(f: PaperFacts): unknown[] {
  const lines = (f.order.items as CartLine[]) ?? []
  const pk = (f.order.packages as AssignedPackage[]) ?? []
  const v = f.vehicle
  return [
    { columns: [{ text: 'TRANSFER MANIFEST', fontSize: 20, bold: true }, { stack: [`Manifest ${f.manifestNo}`, `Departs ${day(f.invoiceDate)}`, `Order ${str(f.order.orderNo)}`, `Invoice ${f.invoiceNo}`], alignment: 'right' }] },
    { columns: [party('Shipper', f.fac.name, [`License ${f.fac.license}`]), party('Recipient', str(f.client.name), clientLines(f.client))], margin: [0, 16, 0, 8] },
    { text: `Driver: ${str(v.driver) || '-'}  ·  Vehicle: ${str(v.make_model) || '-'}  ·  Plate: ${str(v.plate) || '-'}`, margin: [0, 0, 0, 12] },
    {
      table: {
        headerRows: 1,
        widths: ['auto', '*', 'auto', 'auto'],
        body: [['Package tag', 'Item', 'Quantity', 'Line total'].map((t) => ({ text: t, bold: true })), ...pk.map((p) => {
          const l = lines.find((x) => x.id === p.line)
          return [p.tag, l?.name ?? '', `${fmtMilli(p.qtyMilli)} ${p.unit}`, { text: usd(l?.totalCents ?? 0), alignment: 'right' }]
        })],
      },
      layout: 'lightHorizontalLines',
    },
    { text: `Packages: ${pk.length}   Order total: ${usd(Number(f.order.totalCents))}`, bold: true, margin: [0, 10, 0, 24] },
    { columns: [{ text: 'Shipped by ____________________' }, { text: 'Received by ____________________' }] },
  ]
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9-]/g, '-')

/** A Letter page PDF of `content` (Helvetica, no file or URL read), the title and page numbers in each footer. */
export async function renderPdf(title: string, content: unknown[], pageOrientation: 'portrait' | 'landscape' = 'portrait'): Promise<Buffer> {
  return pdfmake().createPdf(doc(title, content, pageOrientation)).getBuffer()
}

/** Writes both PDFs; `remove` takes them away again (the ship transaction rolled back). */
export async function storeOrderPdfs(dataDir: string, f: PaperFacts): Promise<{ invoiceHref: string; manifestHref: string; remove: () => Promise<void> }> {
  const storage = fileStorage(dataDir)
  const inv = `${safe(f.invoiceNo)}.pdf`
  const man = `${safe(f.manifestNo)}.pdf`
  const [a, b] = await Promise.all([renderPdf(`Invoice ${f.invoiceNo}`, invoiceContent(f)), renderPdf(`Manifest ${f.manifestNo}`, manifestContent(f))])
  await storage.put(f.fac.org, 'invoices', inv, { stream: Readable.from([a]) })
  await storage.put(f.fac.org, 'manifests', man, { stream: Readable.from([b]) })
  return {
    invoiceHref: fileRef(f.fac.org, 'invoices', inv),
    manifestHref: fileRef(f.fac.org, 'manifests', man),
    remove: async () => {
      await storage.remove(f.fac.org, 'invoices', inv)
      await storage.remove(f.fac.org, 'manifests', man)
    },
  }
}
