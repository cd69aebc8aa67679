/**
 * A document as a PDF (issue 26 item 1, "exportable as PDF"): the sanitised HTML walked with
 * htmlparser2 into pdfmake's content (headings, paragraphs, lists, tables, links, emphasis), set in
 * the PDF standard Helvetica (no font files), Letter pages with the title, version and page numbers.
 * pdfmake may read no file and no URL (its access policies): images show as their alt text.
 */
import { parseDocument } from 'htmlparser2'
import type { ChildNode, Element } from 'domhandler'
import { createRequire } from 'node:module'
import { sanitizeDocumentHtml } from './sanitize.server'

const require = createRequire(import.meta.url)

type Content = Record<string, unknown> | string | Content[]
interface PdfMake {
  setFonts(f: unknown): void
  setLocalAccessPolicy(f: (p: string) => boolean): void
  setUrlAccessPolicy(f: (u: string) => boolean): void
  createPdf(dd: unknown): { getBuffer(): Promise<Buffer> }
}
let maker: PdfMake | undefined
export function pdfmake(): PdfMake {
  if (maker) return maker
  const m = require('pdfmake') as PdfMake
  m.setFonts(require('pdfmake/standard-fonts/Helvetica.js'))
  // the standard fonts are named, not files; nothing else may be read or fetched
  m.setLocalAccessPolicy((p) => /^Helvetica(-[A-Za-z]+)?$/.test(p))
  m.setUrlAccessPolicy(() => false)
  return (maker = m)
}

const isEl = (n: ChildNode): n is Element => n.type === 'tag'
const textOf = (n: ChildNode): string => (n.type === 'text' ? (n as unknown as { data: string }).data : isEl(n) ? n.children.map(textOf).join('') : '')

/** Inline runs: text with bold, italics, links kept. */
function inline(nodes: ChildNode[], style: Record<string, unknown> = {}): Content[] {
  const out: Content[] = []
  for (const n of nodes) {
    if (n.type === 'text') {
      const t = (n as unknown as { data: string }).data.replace(/\s+/g, ' ')
      if (t) out.push(Object.keys(style).length ? { text: t, ...style } : t)
    } else if (isEl(n)) {
      const tag = n.name
      if (tag === 'br') out.push('\n')
      else if (tag === 'strong' || tag === 'b') out.push(...inline(n.children, { ...style, bold: true }))
      else if (tag === 'em' || tag === 'i') out.push(...inline(n.children, { ...style, italics: true }))
      else if (tag === 'u' || tag === 'ins') out.push(...inline(n.children, { ...style, decoration: 'underline' }))
      else if (tag === 's' || tag === 'del') out.push(...inline(n.children, { ...style, decoration: 'lineThrough' }))
      else if (tag === 'code') out.push(...inline(n.children, { ...style, background: '#eeeeee' }))
      else if (tag === 'a') {
        const href = n.attribs.href
        out.push(...inline(n.children, { ...style, color: '#1d4ed8', decoration: 'underline', ...(href && /^(https?:|mailto:)/i.test(href) ? { link: href } : {}) }))
      } else if (tag === 'img') out.push({ text: `[image: ${n.attribs.alt || n.attribs.src || ''}]`, italics: true, color: '#555555' })
      else out.push(...inline(n.children, style))
    }
  }
  return out
}

const HEADING: Record<string, number> = { h1: 20, h2: 16, h3: 14, h4: 12, h5: 11, h6: 11 }

function blocks(nodes: ChildNode[]): Content[] {
  const out: Content[] = []
  let pending: ChildNode[] = []
  const flush = () => {
    if (pending.some((n) => textOf(n).trim() || (isEl(n) && n.name === 'img'))) out.push({ text: inline(pending), margin: [0, 0, 0, 6] })
    pending = []
  }
  for (const n of nodes) {
    if (!isEl(n)) {
      pending.push(n)
      continue
    }
    const tag = n.name
    if (HEADING[tag]) {
      flush()
      out.push({ text: inline(n.children), fontSize: HEADING[tag], bold: true, margin: [0, 8, 0, 4] })
    } else if (tag === 'p' || tag === 'blockquote' || tag === 'pre') {
      flush()
      out.push({ text: inline(n.children), margin: tag === 'blockquote' ? [16, 0, 0, 6] : [0, 0, 0, 6], ...(tag === 'pre' ? { preserveLeadingSpaces: true } : {}) })
    } else if (tag === 'ul' || tag === 'ol') {
      flush()
      const items = n.children.filter(isEl).filter((c) => c.name === 'li').map((li) => blocks(li.children))
      out.push({ [tag]: items.map((b) => (b.length === 1 ? b[0] : { stack: b })), margin: [0, 0, 0, 6] })
    } else if (tag === 'table') {
      flush()
      const rows: Element[] = []
      const walk = (x: Element) => {
        for (const c of x.children.filter(isEl)) {
          if (c.name === 'tr') rows.push(c)
          else if (['thead', 'tbody', 'tfoot'].includes(c.name)) walk(c)
        }
      }
      walk(n)
      const cells = rows.map((r) => r.children.filter(isEl).filter((c) => c.name === 'td' || c.name === 'th').map((c) => ({ text: inline(c.children), bold: c.name === 'th' })))
      const width = Math.max(0, ...cells.map((r) => r.length))
      if (width) out.push({ table: { headerRows: rows[0]?.children.filter(isEl).every((c) => c.name === 'th') ? 1 : 0, widths: Array(width).fill('*'), body: cells.map((r) => [...r, ...Array(width - r.length).fill('')]) }, layout: 'lightHorizontalLines', margin: [0, 4, 0, 8] })
    } else if (tag === 'hr') {
      flush()
      out.push({ canvas: [{ type: 'line', x1: 0, y1: 4, x2: 468, y2: 4, lineWidth: 0.5 }], margin: [0, 4, 0, 8] })
    } else if (tag === 'li') {
      flush()
      out.push(...blocks(n.children))
    } else pending.push(n)
  }
  flush()
  return out
}

/** The PDF of one document: `title`, a line under it (version, date), the body. */
export async function documentPdf(title: string, subtitle: string, html: string): Promise<Buffer> {
  const dom = parseDocument(sanitizeDocumentHtml(html))
  const dd = {
    info: { title, creator: 'Canopy' },
    pageSize: 'LETTER',
    pageMargins: [72, 64, 72, 64],
    defaultStyle: { font: 'Helvetica', fontSize: 11, lineHeight: 1.2 },
    footer: (page: number, pages: number) => ({ text: `${title} · page ${page} of ${pages}`, alignment: 'center', fontSize: 8, color: '#666666', margin: [0, 24, 0, 0] }),
    content: [{ text: title, fontSize: 22, bold: true }, { text: subtitle, fontSize: 9, color: '#555555', margin: [0, 2, 0, 12] }, ...blocks(dom.children)],
  }
  return pdfmake().createPdf(dd).getBuffer()
}
