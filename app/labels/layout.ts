/**
 * A label laid out in printer dots, the one model every renderer draws (zpl.ts, pdf.ts, svg.ts),
 * so ZPL, PDF and the preview show the same thing. The QR code (SPEC §9: 125 px, level L) sits on
 * the right (vertically centred, or at the top of a portrait label); on the left the title (14 px), the code (12 px, bold) and the
 * lines (10 px; SPEC §9 font sizes, px at 96 to the inch), the barcode at the bottom. What does not
 * fit is left out in this order: lines from the last, then the barcode; text too long for the
 * width is cut with an ellipsis.
 */
import { encode128, QUIET, type Code128 } from './code128'
import type { LabelContent } from './content'
import { qrMatrix, QR_SIZE_PX, type QrMatrix } from './qr'

export interface TextItem {
  kind: 'text'
  /** top-left corner of the text box, in dots */
  x: number
  y: number
  /** font height in dots */
  size: number
  bold: boolean
  text: string
}

export interface BarcodeItem {
  kind: 'barcode'
  /** top-left of the first bar (the quiet zone is to its left) */
  x: number
  y: number
  height: number
  /** dots per module (ZPL ^BY) */
  module: number
  code: Code128
}

export interface QrItem {
  kind: 'qr'
  x: number
  y: number
  /** dots per module (ZPL ^BQ magnification) */
  module: number
  data: string
  matrix: QrMatrix
}

export type LabelItem = TextItem | BarcodeItem | QrItem

export interface Label {
  /** inches */
  widthIn: number
  heightIn: number
  dpi: number
  /** dots */
  width: number
  height: number
  items: LabelItem[]
  /** for the file name and the document title */
  name: string
}

export interface LabelFormat {
  widthIn: number
  heightIn: number
  dpi: number
}

/** Helvetica's average advance, in ems, a little generous so text never runs past the edge. */
const ADVANCE = { regular: 0.56, bold: 0.61 }
const ELLIPSIS = '…'
/** ZPL ^BQ magnification range. */
export const QR_MODULE_MAX = 10

/** Estimated width in dots of `text` at `size`. */
export const textWidth = (text: string, size: number, bold = false) => [...text].length * size * (bold ? ADVANCE.bold : ADVANCE.regular)

/** `text` cut (with an ellipsis) to fit `width` dots. */
export function fitText(text: string, size: number, width: number, bold = false): string {
  const chars = [...text]
  const max = Math.floor(width / (size * (bold ? ADVANCE.bold : ADVANCE.regular)))
  if (chars.length <= max) return text
  return max <= 1 ? '' : chars.slice(0, max - 1).join('').trimEnd() + ELLIPSIS
}

export function layoutLabel(content: LabelContent, f: LabelFormat, name = 'label'): Label {
  const d = f.dpi
  const W = Math.round(f.widthIn * d)
  const H = Math.round(f.heightIn * d)
  const px = (p: number) => Math.max(8, Math.round((p * d) / 96))
  const m = Math.round(0.06 * d)
  const gap = Math.round(0.05 * d)
  const items: LabelItem[] = []

  // QR code: 125 px (1.3") when the label allows, else the largest that fits; whole dots per module
  let right = W - m
  if (content.qr) {
    const matrix = qrMatrix(content.qr)
    const target = Math.min((QR_SIZE_PX / 96) * d, H - 2 * m, (W - 2 * m) * 0.45)
    const module = Math.min(QR_MODULE_MAX, Math.floor(target / matrix.size))
    if (module >= 1) {
      const side = module * matrix.size
      const x = W - m - side
      // top right on a portrait label (a 4" x 6" manifest), else vertically centred
      items.push({ kind: 'qr', x, y: H > W ? m : Math.round((H - side) / 2), module, data: content.qr, matrix })
      right = x - gap
    }
  }
  const colW = right - m

  const title = { size: px(14), bold: true, text: content.title }
  const code = { size: px(12), bold: true, text: content.code && content.code !== content.title ? content.code : '' }
  const lineSize = px(10)
  const lead = (size: number) => Math.round(size * 1.25)

  // barcode: whole dots per module, at most ~15 mil, and its quiet zones inside the column
  let bar: Omit<BarcodeItem, 'y' | 'height'> | null = null
  const minBar = Math.round(0.2 * d)
  if (content.barcode) {
    const c = encode128(content.barcode)
    const module = Math.min(Math.max(1, Math.round(d * 0.0075)), Math.floor(colW / (c.modules + 2 * QUIET)))
    if (module >= 1) bar = { kind: 'barcode', x: m + QUIET * module, module, code: c }
  }
  const fixed = lead(title.size) + (code.text ? lead(code.size) : 0)
  const room = H - 2 * m - fixed
  let lines = content.lines.length
  const barNeeds = bar ? minBar + gap : 0
  while (lines > 0 && lines * lead(lineSize) + barNeeds > room) lines--
  if (bar && barNeeds > room) bar = null

  let y = m
  const text = (t: { size: number; bold: boolean; text: string }) => {
    const fitted = fitText(t.text, t.size, colW, t.bold)
    if (fitted) items.push({ kind: 'text', x: m, y, size: t.size, bold: t.bold, text: fitted })
    y += lead(t.size)
  }
  text(title)
  if (code.text) text(code)
  for (const l of content.lines.slice(0, lines)) text({ size: lineSize, bold: false, text: `${l.label}: ${l.value}` })
  if (bar) {
    const top = y + gap
    const height = Math.min(Math.round(0.5 * d), H - m - top)
    items.push({ ...bar, y: top, height })
  }
  return { widthIn: f.widthIn, heightIn: f.heightIn, dpi: d, width: W, height: H, items, name }
}
