/**
 * ZPL II for Zebra printers: one ^XA … ^XZ format, UTF-8 (^CI28), print width and length of the
 * label. Text is font 0 (scalable) at ^FO; every text and QR field is sent through ^FH, with any
 * byte that is not plain printable ASCII — and ^, ~, _ and \ — written as _XX hex, so text from a
 * record can never start a command. The barcode is ^BC with the Code 128 subsets chosen here
 * (start and switch invocation codes), so the printer draws exactly the symbol the PDF and the
 * preview draw; the QR code is ^BQ model 2 at the layout's magnification, error level L.
 */
import type { BarcodeItem, Label, QrItem, TextItem } from './layout'
import { QR_LEVEL } from './qr'

/** ^FH field data: safe ASCII as is, everything else as _XX (UTF-8 bytes). */
export function zplEscape(text: string): string {
  let out = ''
  for (const b of new TextEncoder().encode(text)) {
    const safe = b >= 0x20 && b <= 0x7e && b !== 0x5e && b !== 0x7e && b !== 0x5f && b !== 0x5c
    out += safe ? String.fromCharCode(b) : `_${b.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** ^BC field data in mode N: start code, then each run with its subset invocation (>: B, >; C, >5 to C, >6 to B). */
export function zplCode128Data(item: Pick<BarcodeItem, 'code'>): string {
  return item.code.segments.map((s, k) => (k === 0 ? (s.set === 'C' ? '>;' : '>:') : s.set === 'C' ? '>5' : '>6') + s.text).join('')
}

const text = (t: TextItem) => `^FO${t.x},${t.y}^A0N,${t.size},${Math.round(t.size * (t.bold ? 1 : 0.9))}^FH^FD${zplEscape(t.text)}^FS`
const barcode = (b: BarcodeItem) => `^FO${b.x},${b.y}^BY${b.module},3,${b.height}^BCN,${b.height},N,N,N,N^FD${zplCode128Data(b)}^FS`
const qr = (q: QrItem) => `^FO${q.x},${q.y}^BQN,2,${q.module}^FH^FD${QR_LEVEL}A,${zplEscape(q.data)}^FS`

export function renderZpl(label: Label): string {
  const body = label.items.map((i) => (i.kind === 'text' ? text(i) : i.kind === 'barcode' ? barcode(i) : qr(i)))
  return ['^XA', '^CI28', `^PW${label.width}`, `^LL${label.height}`, '^LH0,0', ...body, '^PQ1', '^XZ', ''].join('\n')
}
