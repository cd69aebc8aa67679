/**
 * QR codes for labels: the module matrix (error correction level L, SPEC §9) from
 * `qrcode-generator`, text as UTF-8 bytes (the package's Byte mode alone keeps only the low byte
 * of each character). The renderers draw the dark modules themselves.
 */
import qrcode from 'qrcode-generator'

/** SPEC §9: QR code size 125 (CSS px, 96 to the inch) and error correction level L. */
export const QR_SIZE_PX = 125
export const QR_LEVEL = 'L'
/** Byte-mode capacity of the largest symbol at level L. */
export const QR_MAX_BYTES = 2953

export interface QrMatrix {
  /** modules per side */
  size: number
  /** dark[row][col] */
  dark: boolean[][]
}

const utf8 = (s: string) => new TextEncoder().encode(s)

/** The matrix of `text` (at most 2,953 UTF-8 bytes; throws past that). */
export function qrMatrix(text: string): QrMatrix {
  const bytes = utf8(text)
  if (bytes.length > QR_MAX_BYTES) throw new Error(`a QR code at level L holds at most ${QR_MAX_BYTES} bytes`)
  const q = qrcode(0, QR_LEVEL)
  q.addData(String.fromCharCode(...bytes), 'Byte')
  q.make()
  const size = q.getModuleCount()
  const dark = Array.from({ length: size }, (_, r) => Array.from({ length: size }, (_, c) => q.isDark(r, c)))
  return { size, dark }
}

/** Dark modules of one row as runs [col, length], so a renderer draws one rectangle per run. */
export function darkRuns(row: boolean[]): Array<[number, number]> {
  const runs: Array<[number, number]> = []
  for (let c = 0; c < row.length; c++) {
    if (!row[c]) continue
    const start = c
    while (c + 1 < row.length && row[c + 1]) c++
    runs.push([start, c - start + 1])
  }
  return runs
}
