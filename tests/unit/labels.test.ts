/**
 * Labels (issue 8 item 5): Code 128 decoded back from its bars, the QR matrix, templates and sizes,
 * the layout's bounds, and the three renderers' real structure (ZPL commands and escapes, the PDF's
 * cross-reference table and strings, the SVG's escapes).
 */
import { FACILITIES } from '#app/seed/core'
import { makeCtx } from '#app/seed/kit'
import * as business from '#app/seed/records/business'
import { barsOf, encode128, encodable, PATTERNS, QUIET, START_B, START_C, STOP, CODE_B, CODE_C } from '#app/labels/code128'
import { labelContent, type LabelContent, type LabelSource } from '#app/labels/content'
import { fitText, layoutLabel, QR_MODULE_MAX, type BarcodeItem, type QrItem, type TextItem } from '#app/labels/layout'
import { pdfString, renderPdf } from '#app/labels/pdf'
import { darkRuns, qrMatrix } from '#app/labels/qr'
import { renderSvg } from '#app/labels/svg'
import { dpiOf, labelSizeOf, LABEL_SIZES, TEMPLATES, templateNamed } from '#app/labels/templates'
import { renderZpl, zplCode128Data, zplEscape } from '#app/labels/zpl'

/** An independent reader: bar widths → symbol values → checksum check → text (subsets B and C). */
function decode128(widths: number[]): { text: string; values: number[] } {
  const byPattern = new Map(PATTERNS.map((p, v) => [p, v]))
  const values: number[] = []
  let i = 0
  while (i < widths.length) {
    const n = widths.length - i === 7 ? 7 : 6
    const sym = widths.slice(i, i + n)
    expect(sym.reduce((a, b) => a + b, 0)).toBe(n === 7 ? 13 : 11)
    const v = byPattern.get(sym.join('') as (typeof PATTERNS)[number])
    if (v === undefined) throw new Error(`no symbol ${sym.join('')}`)
    values.push(v)
    i += n
  }
  expect(values.at(-1)).toBe(STOP)
  const data = values.slice(0, -2)
  const check = data.reduce((s, v, p) => s + v * (p === 0 ? 1 : p), 0) % 103
  expect(values.at(-2)).toBe(check)
  let set = data[0] === START_C ? 'C' : data[0] === START_B ? 'B' : '?'
  let text = ''
  for (const v of data.slice(1)) {
    if (set === 'B' && v === CODE_C) set = 'C'
    else if (set === 'C' && v === CODE_B) set = 'B'
    else text += set === 'C' ? String(v).padStart(2, '0') : String.fromCharCode(v + 32)
  }
  return { text, values }
}

describe('Code 128', () => {
  it('has 107 distinct symbols of 3 bars and 3 spaces, 11 modules each (the stop 13)', () => {
    expect(PATTERNS).toHaveLength(107)
    expect(new Set(PATTERNS).size).toBe(107)
    PATTERNS.forEach((p, v) => {
      const sum = [...p].reduce((a, b) => a + Number(b), 0)
      expect([p.length, sum]).toEqual(v === STOP ? [7, 13] : [6, 11])
    })
  })

  it('encodes subset B with the mod-103 checksum and the standard bars (PJJ123C)', () => {
    const c = encode128('PJJ123C')
    // P J J 1 2 3 C are values 48 42 42 17 18 19 35; checksum (104 + 48·1 + 42·2 + 42·3 + 17·4 + 18·5 + 19·6 + 35·7) mod 103 = 879 mod 103
    expect(c.values).toEqual([104, 48, 42, 42, 17, 18, 19, 35, 55, 106])
    expect(c.checksum).toBe(55)
    expect(c.widths.slice(0, 12).join('')).toBe('211214' + '313121') // start B, then P
    expect(c.widths.slice(-7).join('')).toBe('2331112')
    expect(c.modules).toBe(11 * 9 + 13)
    expect(decode128(c.widths).text).toBe('PJJ123C')
  })

  it('packs an even run of digits in subset C', () => {
    const c = encode128('12345678')
    // start C, 12 34 56 78, checksum (105 + 12 + 34·2 + 56·3 + 78·4) mod 103 = 665 mod 103 = 47
    expect(c.values).toEqual([105, 12, 34, 56, 78, 47, 106])
    expect(decode128(c.widths).text).toBe('12345678')
  })

  it('switches to C for a METRC tag’s digit tail, and back to B after it', () => {
    const tag = '1A4FF0300000000000001234'
    const c = encode128(tag)
    expect(c.segments).toEqual([{ set: 'B', text: '1A4FF0' }, { set: 'C', text: '300000000000001234' }])
    expect(decode128(c.widths).text).toBe(tag)
    expect(c.values).toContain(CODE_C)
    const mid = encode128('AB12345678CD')
    expect(mid.segments.map((s) => s.set)).toEqual(['B', 'C', 'B'])
    expect(decode128(mid.widths)).toMatchObject({ text: 'AB12345678CD' })
    expect(mid.values).toContain(CODE_B)
    // short digit runs stay in B (a switch would cost more than it saves)
    expect(encode128('A12B').segments).toEqual([{ set: 'B', text: 'A12B' }])
    expect(decode128(encode128('123').widths).text).toBe('123')
    expect(decode128(encode128('0').widths).text).toBe('0')
  })

  it('takes printable ASCII only', () => {
    expect(encodable('Plant 7 (A)')).toBe(true)
    expect(encodable('')).toBe(false)
    expect(encodable('café')).toBe(false)
    expect(encodable('a\nb')).toBe(false)
    expect(() => encode128('é')).toThrow()
  })

  it('lays bars out from the widths', () => {
    const c = encode128('A')
    const bars = barsOf(c)
    expect(bars[0]).toEqual([0, 2]) // start B: bar 2, space 1, bar 1 …
    expect(bars[1]).toEqual([3, 1])
    expect(bars.reduce((s, [, w]) => s + w, 0) + c.widths.filter((_, k) => k % 2 === 1).reduce((a, b) => a + b, 0)).toBe(c.modules)
  })
})

describe('QR matrix', () => {
  it('is level L: 17 bytes still fit version 1 (21 modules), 18 do not', () => {
    expect(qrMatrix('A'.repeat(17)).size).toBe(21)
    expect(qrMatrix('A'.repeat(18)).size).toBe(25)
  })
  it('has the three finder patterns and counts UTF-8 bytes', () => {
    const { dark, size } = qrMatrix('1A4FF0300000000000001234')
    for (const [r, c] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
      expect(dark[r].slice(c, c + 7).every(Boolean)).toBe(true) // top edge of a finder
      expect(dark[r + 1][c + 1]).toBe(false)
      expect(dark[r + 3][c + 3]).toBe(true) // its centre
    }
    // 6 characters of 2 bytes each = 12 bytes: still version 1; 9 of them = 18 bytes: version 2
    expect(qrMatrix('ñ'.repeat(8)).size).toBe(21)
    expect(qrMatrix('ñ'.repeat(9)).size).toBe(25)
  })
  it('gives runs of dark modules', () => {
    expect(darkRuns([true, true, false, true, false, false, true])).toEqual([[0, 2], [3, 1], [6, 1]])
  })
})

describe('templates and sizes', () => {
  it('resolves every template the demo printers name', () => {
    const names = FACILITIES.filter((f) => f.kind !== 'lobby').flatMap((f) => business.seedRecords(makeCtx(f, new Date('2026-11-20T15:00:00Z'), ':business')).set_printers.map((p) => String(p.template)))
    expect(names.length).toBeGreaterThan(5)
    for (const n of names) expect(templateNamed(n), n).not.toBeNull()
    expect(templateNamed('')).toBe(TEMPLATES.default)
    expect(templateNamed('nope')).toBeNull()
    expect(templateNamed('toString')).toBeNull()
  })
  it('reads every label size (landscape up to 4")', () => {
    for (const s of LABEL_SIZES) expect(labelSizeOf(s), s).not.toBeNull()
    expect(labelSizeOf('1" x 3"')).toEqual({ width: 3, height: 1 })
    expect(labelSizeOf('4" x 2"')).toEqual({ width: 4, height: 2 })
    expect(labelSizeOf('4" x 6"')).toEqual({ width: 4, height: 6 })
    expect(labelSizeOf('big')).toBeNull()
    expect(labelSizeOf('0" x 3"')).toBeNull()
    for (const s of Object.values(TEMPLATES).map((t) => t.size)) expect(labelSizeOf(s)).not.toBeNull()
  })
  it('takes a real dpi, else 203', () => {
    expect(dpiOf(300)).toBe(300)
    expect(dpiOf('203')).toBe(203)
    expect(dpiOf(7)).toBe(203)
    expect(dpiOf(undefined)).toBe(203)
    expect(dpiOf(203.5)).toBe(203)
  })
})

const TAG = '1A4FF0300000000000001234'
const source = (over: Partial<LabelSource> = {}): LabelSource => ({
  tableLabel: 'Plants',
  columns: [
    { key: 'tag', label: 'Plant Tag', show: true, format: '' },
    { key: 'strain', label: 'Strain', show: true, format: 'id:set_strains:name' },
    { key: 'room', label: 'Room', show: true, format: 'id:set_rooms:name' },
    { key: 'phase', label: 'Growth Phase', show: true, format: '' },
    { key: 'planted', label: 'Planted', show: true, format: 'date' },
    { key: 'image', label: 'Photo', show: true, format: 'image' },
    { key: 'notes', label: 'Notes', show: true, format: 'trim' },
  ],
  values: { tag: TAG, strain: 'Blue Dream', room: 'Flower Room 2', phase: 'Flowering', planted: '03/07/2026', image: '/getfiles/x.png', notes: 'Says (hi) \\ café — 日本' },
  id: '65f000000000000000000001',
  url: 'http://canopy.test/CulPlants/65f000000000000000000001/edit',
  ...over,
})

describe('label content', () => {
  it('picks title, code and lines by the template, images never', () => {
    const c = labelContent(TEMPLATES.plant_tag_rfid, source())
    expect(c).toMatchObject({ title: 'Blue Dream', code: TAG, barcode: TAG, qr: TAG })
    expect(c.lines).toEqual([{ label: 'Room', value: 'Flower Room 2' }, { label: 'Growth Phase', value: 'Flowering' }])
    const d = labelContent({ ...TEMPLATES.default, lines: 10 }, source())
    expect(d.title).toBe('Plants')
    expect(d.lines.map((l) => l.label)).toEqual(['Strain', 'Room', 'Growth Phase', 'Planted', 'Notes'])
  })
  it('falls back to the record id, and points the QR code at the record when the template says so', () => {
    const c = labelContent(TEMPLATES.visitor_badge, source({ values: {} }))
    expect(c.code).toBe('65f000000000000000000001')
    expect(c.barcode).toBeNull()
    expect(c.qr).toBe('http://canopy.test/CulPlants/65f000000000000000000001/edit')
  })
  it('leaves the barcode out for text Code 128 cannot carry (the text still prints)', () => {
    const c = labelContent(TEMPLATES.default, source({ values: { tag: 'Pflanze ä^XZ' } }))
    expect(c.code).toBe('Pflanze ä^XZ')
    expect(c.barcode).toBeNull()
    expect(labelContent(TEMPLATES.default, source({ values: { tag: 'A>B' } })).barcode).toBeNull()
  })
})

const content = (over: Partial<LabelContent> = {}): LabelContent => ({
  title: 'Dream (Sativa) \\ 5% – café',
  code: TAG,
  lines: [
    { label: 'Room', value: 'Flower ^XZ~JA_ Room' },
    { label: 'Notes', value: 'ñ € 日本' },
  ],
  barcode: TAG,
  qr: TAG,
  ...over,
})

describe('layout', () => {
  it.each([
    ['1" x 3"', 203],
    ['1" x 3"', 300],
    ['4" x 2"', 203],
    ['2" x 4"', 300],
    ['4" x 6"', 203],
    ['2" x 1"', 203],
  ])('keeps everything on a %s label at %i dpi', (s, dpi) => {
    const size = labelSizeOf(s)!
    const l = layoutLabel(content(), { widthIn: size.width, heightIn: size.height, dpi })
    expect([l.width, l.height]).toEqual([Math.round(size.width * dpi), Math.round(size.height * dpi)])
    const qr = l.items.find((i): i is QrItem => i.kind === 'qr')!
    expect(qr).toBeDefined()
    expect(qr.x + qr.module * qr.matrix.size).toBeLessThanOrEqual(l.width)
    expect(qr.y + qr.module * qr.matrix.size).toBeLessThanOrEqual(l.height)
    // 125 px (1.302") when the label is large enough, within ZPL's ^BQ magnification (at most 10 dots a module)
    if (size.height >= 2 && size.width >= 4) expect(qr.module * qr.matrix.size).toBeGreaterThan(Math.min(0.85 * (125 / 96) * dpi, QR_MODULE_MAX * qr.matrix.size - 1))
    for (const t of l.items.filter((i): i is TextItem => i.kind === 'text')) {
      expect(t.y + t.size).toBeLessThanOrEqual(l.height)
      expect(t.x + t.text.length * t.size * 0.5).toBeLessThan(qr.x) // left of the QR code
    }
    const bar = l.items.find((i): i is BarcodeItem => i.kind === 'barcode')
    if (s !== '2" x 1"') expect(bar).toBeDefined()
    if (bar) {
      expect(bar.x - QUIET * bar.module).toBeGreaterThanOrEqual(0)
      expect(bar.x + (bar.code.modules + QUIET) * bar.module).toBeLessThanOrEqual(qr.x)
      expect(bar.y + bar.height).toBeLessThanOrEqual(l.height)
      expect(bar.height).toBeGreaterThanOrEqual(Math.round(0.2 * dpi))
    }
  })
  it('cuts text that does not fit with an ellipsis', () => {
    expect(fitText('abcdefghij', 10, 30)).toBe('abcd…') // 30 / (10 · 0.56) = 5 characters
    const cut = fitText('x'.repeat(100), 20, 200)
    expect(cut.endsWith('…')).toBe(true)
    expect([...cut].length).toBe(Math.floor(200 / (20 * 0.56)))
    expect(fitText('short', 20, 200)).toBe('short')
  })
})

const label = (over: Partial<LabelContent> = {}, dpi = 203) => layoutLabel(content(over), { widthIn: 4, heightIn: 2, dpi }, 'package_label_4x2 (test) \\')

describe('ZPL', () => {
  it('escapes with ^FH so record text cannot inject commands', () => {
    expect(zplEscape('A^XZ~JA_b\\')).toBe('A_5EXZ_7EJA_5Fb_5C')
    expect(zplEscape('ñ€')).toBe('_C3_B1_E2_82_AC')
    expect(zplEscape('a\nb')).toBe('a_0Ab')
  })
  it('is one ^XA … ^XZ format with text, ^BC and ^BQ', () => {
    const l = label()
    const z = renderZpl(l)
    const lines = z.trim().split('\n')
    expect(lines[0]).toBe('^XA')
    expect(lines.at(-1)).toBe('^XZ')
    expect(z.match(/\^XA/g)).toHaveLength(1)
    expect(z.match(/\^XZ/g)).toHaveLength(1) // the ^XZ in the record's text is _5EXZ
    expect(z).toContain('^CI28')
    expect(z).toContain(`^PW${l.width}`)
    expect(z).toContain(`^LL${l.height}`)
    expect(z).toContain('^FDRoom: Flower _5EXZ_7EJA_5F Room^FS')
    expect(z).toContain('^FDNotes: _C3_B1 _E2_82_AC _E6_97_A5_E6_9C_AC^FS')
    expect(z).toContain('^FDDream (Sativa) _5C 5% _E2_80_93 caf_C3_A9^FS')
    // every text and QR field goes through ^FH; only the barcode's own data does not
    for (const m of z.matchAll(/\^F[OS]?[^\n]*?\^FD/g)) if (!m[0].includes('^BC')) expect(m[0]).toMatch(/\^FH\^FD$/)
    const t = l.items.find((i): i is TextItem => i.kind === 'text')!
    expect(z).toContain(`^FO${t.x},${t.y}^A0N,${t.size},`)
    const bar = l.items.find((i): i is BarcodeItem => i.kind === 'barcode')!
    expect(z).toContain(`^FO${bar.x},${bar.y}^BY${bar.module},3,${bar.height}^BCN,${bar.height},N,N,N,N^FD>:1A4FF0>5300000000000001234^FS`)
    const qr = l.items.find((i): i is QrItem => i.kind === 'qr')!
    expect(z).toContain(`^FO${qr.x},${qr.y}^BQN,2,${qr.module}^FH^FDLA,${TAG}^FS`)
    expect(qr.module).toBeGreaterThanOrEqual(1)
    expect(qr.module).toBeLessThanOrEqual(10)
  })
  it('writes subset C starts and switches as ZPL invocation codes', () => {
    expect(zplCode128Data({ code: encode128('12345678') })).toBe('>;12345678')
    expect(zplCode128Data({ code: encode128('AB12345678CD') })).toBe('>:AB>512345678>6CD')
  })
})

/** Reads a PDF the way a viewer starts: startxref → xref table → each object at its offset. */
function parsePdf(bytes: Uint8Array) {
  const s = Buffer.from(bytes).toString('latin1')
  expect(s.startsWith('%PDF-1.4\n')).toBe(true)
  expect(s.trimEnd().endsWith('%%EOF')).toBe(true)
  const start = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(s)![1])
  expect(s.slice(start, start + 5)).toBe('xref\n')
  const head = /^xref\n0 (\d+)\n/.exec(s.slice(start))!
  const count = Number(head[1])
  let p = start + head[0].length
  const offsets: number[] = []
  for (let n = 0; n < count; n++) {
    const entry = s.slice(p, p + 20)
    expect(entry).toMatch(/^\d{10} \d{5} [nf] \n$/)
    offsets.push(Number(entry.slice(0, 10)))
    p += 20
  }
  const trailer = s.slice(p)
  expect(trailer).toMatch(new RegExp(`^trailer\\n<< /Size ${count} /Root 1 0 R`))
  const objects = new Map<number, string>()
  for (let n = 1; n < count; n++) {
    const at = offsets[n]
    expect(s.slice(at, at + `${n} 0 obj\n`.length)).toBe(`${n} 0 obj\n`)
    objects.set(n, s.slice(at, s.indexOf('\nendobj\n', at)))
  }
  return { text: s, objects }
}

describe('PDF', () => {
  it('escapes strings: \\ ( ) as \\x, WinAnsi bytes as octal, the rest as ?', () => {
    expect(pdfString('a(b)c\\d')).toBe('(a\\(b\\)c\\\\d)')
    expect(pdfString('café € – 日')).toBe('(caf\\351 \\200 \\226 ?)')
    expect(pdfString('tab\tnew')).toBe('(tab?new)')
  })
  it('is a valid one-page PDF 1.4: cross-reference offsets, stream length, page = label size', () => {
    const l = label()
    const { objects, text } = parsePdf(renderPdf(l))
    expect(objects.get(1)).toContain('/Type /Catalog')
    expect(objects.get(3)).toContain('/MediaBox [0 0 288 144]') // 4" x 2" in points
    expect(objects.get(4)).toContain('/BaseFont /Helvetica /Encoding /WinAnsiEncoding')
    const stream = objects.get(6)!
    const len = Number(/\/Length (\d+)/.exec(stream)![1])
    const body = stream.slice(stream.indexOf('stream\n') + 7, stream.lastIndexOf('endstream'))
    expect(body.length).toBe(len)
    // the text, escaped
    expect(body).toContain('(Dream \\(Sativa\\) \\\\ 5% \\226 caf\\351) Tj')
    expect(body).toContain(`(${TAG}) Tj`)
    expect(body).toContain('(Notes: \\361 \\200 ??) Tj')
    expect(objects.get(7)).toContain('/Title (package_label_4x2 \\(test\\) \\\\)')
    // bars: one rectangle per bar of the symbol; QR: one per run of dark modules
    const bar = l.items.find((i): i is BarcodeItem => i.kind === 'barcode')!
    const qr = l.items.find((i): i is QrItem => i.kind === 'qr')!
    const runs = qr.matrix.dark.reduce((n, row) => n + darkRuns(row).length, 0)
    expect(body.match(/ re\n/g)).toHaveLength(barsOf(bar.code).length + runs)
    // after the binary-marker comment, the file is plain ASCII
    // eslint-disable-next-line no-control-regex -- every ASCII code, control characters included
    expect(text.split('\n').slice(2).join('\n')).toMatch(/^[\x00-\x7f]*$/)
  })
  it('draws the first bar where the layout put it, in points', () => {
    const l = label({}, 300)
    const bar = l.items.find((i): i is BarcodeItem => i.kind === 'barcode')!
    const { objects } = parsePdf(renderPdf(l))
    const k = 72 / 300
    const r = (n: number) => String(Math.round(n * 100) / 100)
    const first = barsOf(bar.code)[0]
    expect(objects.get(6)).toContain(`${r(bar.x * k)} ${r((l.height - bar.y - bar.height) * k)} ${r(first[1] * bar.module * k)} ${r(bar.height * k)} re`)
  })
})

describe('SVG', () => {
  it('is the label in inches, text escaped', () => {
    const svg = renderSvg(label({ title: '<script>x()</script>&co' }))
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="4in" height="2in" viewBox="0 0 812 406"/)
    expect(svg).toContain('&lt;script&gt;x()&lt;/script&gt;&amp;co')
    expect(svg).not.toContain('<script')
    expect(svg).toContain(`>${TAG}</text>`)
    expect(svg).toContain(`data-barcode="${TAG}"`)
    expect(svg).toContain(`data-qr="${TAG}"`)
  })
})
