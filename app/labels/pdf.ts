/**
 * A label as a one-page PDF 1.4, written here (no PDF library): the page is the label's size,
 * text in the standard Helvetica and Helvetica-Bold (WinAnsiEncoding, so nothing is embedded),
 * barcode bars and QR modules as filled rectangles. Strings are escaped (\ ( ) and every byte
 * outside printable ASCII as \ddd), characters WinAnsi lacks become '?'. The cross-reference
 * table holds each object's exact byte offset.
 */
import { darkRuns } from './qr'
import type { Label, LabelItem } from './layout'

/** Unicode → WinAnsiEncoding for the characters of 0x80–0x9F (0xA0–0xFF are Latin-1 as is). */
const WIN_ANSI: Record<number, number> = {
  0x20ac: 0x80, 0x201a: 0x82, 0x0192: 0x83, 0x201e: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87, 0x02c6: 0x88,
  0x2030: 0x89, 0x0160: 0x8a, 0x2039: 0x8b, 0x0152: 0x8c, 0x017d: 0x8e, 0x2018: 0x91, 0x2019: 0x92, 0x201c: 0x93,
  0x201d: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02dc: 0x98, 0x2122: 0x99, 0x0161: 0x9a, 0x203a: 0x9b,
  0x0153: 0x9c, 0x017e: 0x9e, 0x0178: 0x9f,
}

/** The WinAnsi bytes of `text`; what the encoding cannot show is '?'. */
export function winAnsi(text: string): number[] {
  const out: number[] = []
  for (const ch of text) {
    const c = ch.codePointAt(0)!
    out.push(c >= 0x20 && c <= 0x7e ? c : c >= 0xa0 && c <= 0xff ? c : WIN_ANSI[c] ?? 0x3f)
  }
  return out
}

/** A PDF literal string, `(…)`, pure ASCII: \ ( ) escaped, other bytes as octal. */
export function pdfString(text: string): string {
  let s = '('
  for (const b of winAnsi(text)) {
    if (b === 0x5c || b === 0x28 || b === 0x29) s += '\\' + String.fromCharCode(b)
    else if (b >= 0x20 && b <= 0x7e) s += String.fromCharCode(b)
    else s += '\\' + b.toString(8).padStart(3, '0')
  }
  return s + ')'
}

const num = (n: number) => (Math.round(n * 100) / 100).toString()

function draw(label: Label): string {
  const k = 72 / label.dpi
  const H = label.height
  const ops: string[] = ['0 g']
  const rect = (x: number, yTop: number, w: number, h: number) => ops.push(`${num(x * k)} ${num((H - yTop - h) * k)} ${num(w * k)} ${num(h * k)} re`)
  const item = (i: LabelItem) => {
    if (i.kind === 'text') {
      // baseline about 0.78 em below the top of the box (Helvetica's ascent, as in the SVG)
      ops.push(`BT /${i.bold ? 'F2' : 'F1'} ${num(i.size * k)} Tf ${num(i.x * k)} ${num((H - i.y - i.size * 0.78) * k)} Td ${pdfString(i.text)} Tj ET`)
    } else if (i.kind === 'barcode') {
      let x = 0
      i.code.widths.forEach((w, n) => {
        if (n % 2 === 0) rect(i.x + x * i.module, i.y, w * i.module, i.height)
        x += w
      })
      ops.push('f')
    } else {
      i.matrix.dark.forEach((row, r) => {
        for (const [c, len] of darkRuns(row)) rect(i.x + c * i.module, i.y + r * i.module, len * i.module, i.module)
      })
      ops.push('f')
    }
  }
  label.items.forEach(item)
  return ops.join('\n') + '\n'
}

export function renderPdf(label: Label): Uint8Array<ArrayBuffer> {
  const k = 72 / label.dpi
  const content = draw(label)
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(label.width * k)} ${num(label.height * k)}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    `<< /Title ${pdfString(label.name)} /Producer (Canopy) >>`,
  ]
  // everything above is ASCII (pdfString escapes the rest), so string length = byte length
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n'
  const offsets: number[] = []
  objects.forEach((body, n) => {
    offsets.push(out.length)
    out += `${n + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  // the binary-marker comment is the only non-ASCII: one byte per character (Latin-1)
  const bytes = new Uint8Array(out.length)
  for (let n = 0; n < out.length; n++) bytes[n] = out.charCodeAt(n)
  return bytes
}
