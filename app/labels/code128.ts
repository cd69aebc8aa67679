/**
 * Code 128 (ISO/IEC 15417), written here rather than pulled in: subsets B and C, the mod-103
 * checksum, and the bar widths of every symbol. Subset C packs two digits into one symbol and is
 * used where it saves room (a run of at least 4 digits at either end, 6 in the middle), so a
 * METRC tag's long digit tail stays narrow. Pure: server and browser alike.
 */

/** Element widths in modules (bar, space, bar, …) of values 0–106; 106 is the stop with its 2-module termination bar. */
export const PATTERNS = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232', '2331112',
] as const

export const CODE_C = 99
export const CODE_B = 100
export const START_B = 104
export const START_C = 105
export const STOP = 106
/** Quiet zone each side, in modules (the standard asks for at least 10). */
export const QUIET = 10

/** One run of the symbol in one subset: what ZPL's ^BC is told, and what is drawn. */
export interface Segment {
  set: 'B' | 'C'
  text: string
}

export interface Code128 {
  text: string
  segments: Segment[]
  /** symbol values: start, data (with subset switches), checksum, stop */
  values: number[]
  checksum: number
  /** element widths in modules, bar first, alternating bar and space (the stop's termination bar included) */
  widths: number[]
  /** total width in modules, without the quiet zones */
  modules: number
}

/** Text Code 128 subset B can carry: printable ASCII. */
export const encodable = (text: string): boolean => /^[\x20-\x7e]{1,80}$/.test(text)

const digitRun = (s: string, i: number) => {
  let n = 0
  while (i + n < s.length && s.charCodeAt(i + n) >= 48 && s.charCodeAt(i + n) <= 57) n++
  return n
}

/** Splits text into B and C runs: C for digit runs long enough to pay for the switch, an even number of digits each. */
export function segmentsOf(text: string): Segment[] {
  const out: Segment[] = []
  const push = (set: Segment['set'], s: string) => {
    if (!s) return
    const last = out[out.length - 1]
    if (last && last.set === set) last.text += s
    else out.push({ set, text: s })
  }
  let i = 0
  while (i < text.length) {
    const run = digitRun(text, i)
    const atStart = i === 0
    const atEnd = i + run === text.length
    const worth = run >= 2 && (atStart && atEnd ? run % 2 === 0 || run >= 4 : atStart || atEnd ? run >= 4 : run >= 6)
    if (worth) {
      // an odd run: its first digit in B when the symbol goes on in B before it, else its last one after
      const odd = run % 2 === 1
      if (odd && !atStart) {
        push('B', text[i])
        push('C', text.slice(i + 1, i + run))
      } else if (odd) {
        push('C', text.slice(i, i + run - 1))
        push('B', text[i + run - 1])
      } else push('C', text.slice(i, i + run))
      i += run
    } else {
      const n = Math.max(run, 1)
      push('B', text.slice(i, i + n))
      i += n
    }
  }
  return out
}

/** Encodes printable ASCII (1–80 characters); throws on anything else (check `encodable` first). */
export function encode128(text: string): Code128 {
  if (!encodable(text)) throw new Error('Code 128 here takes 1 to 80 printable ASCII characters')
  const segments = segmentsOf(text)
  const values: number[] = [segments[0].set === 'C' ? START_C : START_B]
  segments.forEach((seg, k) => {
    if (k > 0) values.push(seg.set === 'C' ? CODE_C : CODE_B)
    if (seg.set === 'C') for (let j = 0; j < seg.text.length; j += 2) values.push(Number(seg.text.slice(j, j + 2)))
    else for (const ch of seg.text) values.push(ch.charCodeAt(0) - 32)
  })
  const checksum = values.reduce((sum, v, pos) => sum + v * Math.max(pos, 1), 0) % 103
  values.push(checksum, STOP)
  const widths = values.flatMap((v) => [...PATTERNS[v]].map(Number))
  return { text, segments, values, checksum, widths, modules: widths.reduce((a, b) => a + b, 0) }
}

/** The bars as [start, width] in modules from the left edge of the symbol (no quiet zone). */
export function barsOf(code: Pick<Code128, 'widths'>): Array<[number, number]> {
  const bars: Array<[number, number]> = []
  let x = 0
  code.widths.forEach((w, k) => {
    if (k % 2 === 0) bars.push([x, w])
    x += w
  })
  return bars
}
