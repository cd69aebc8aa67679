/** Issue 20 item 2: the one URL-safety rule (app/utils/safe-url.ts) and the pipeline price of item 1 (app/api/pipeline/cost.ts). */
import { pipelineCost } from '#app/api/pipeline/cost'
import { safeUrl, sanitizeDocumentHtml } from '#app/areas/documents/sanitize.server'
import { fileHref } from '#app/components/table/table-cells'
import { safeLink, safePath } from '#app/utils/safe-url'

// every way a browser reads a path as another site: `//`, `\`, and tab/CR/LF dropped from between them
const AWAY = ['//evil.example', '///evil.example', '/\\evil.example', '\\/evil.example', '\\\\evil.example', '/\t/evil.example', '/\r/evil.example', '/\n/evil.example', '/\r\n/evil.example', '\t//evil.example', '/\t\\evil.example', '/\\\t/evil.example', ' //evil.example', '/\u0000/evil.example', 'https://evil.example', 'javascript:alert(1)', '']

describe('safePath', () => {
  it('refuses every address a browser would take to another site', () => {
    for (const p of AWAY) expect(safePath(p), JSON.stringify(p)).toBeNull()
  })
  it('keeps paths of this site, encoded as a Location header needs', () => {
    expect(safePath('/culPlants?q=a b#top')).toBe('/culPlants?q=a%20b#top')
    expect(safePath('/%2F/evil.example')).toBe('/%2F/evil.example')
    expect(safePath('/a/../Welcome')).toBe('/Welcome')
    expect(safePath('/Señal')).toBe('/Se%C3%B1al')
  })
})

describe('stored links', () => {
  it('a document link or image, and a file field, never points at another site through a disguised path or scheme', () => {
    for (const p of AWAY.filter((x) => x.startsWith('/') || x.startsWith('\\'))) {
      expect(safeUrl(p, 'link'), JSON.stringify(p)).toBe(false)
      expect(fileHref(p, 'greenleaf'), JSON.stringify(p)).toMatch(/^\/getfiles\/greenleaf\//)
    }
    expect(safeLink('java\tscript:alert(1)')).toBeNull()
    expect(safeLink('https://example.com/sop')).toBe('https://example.com/sop')
    expect(safeLink('mailto:a@b.c')).toBe('mailto:a@b.c')
    expect(safeLink('http://example.com/a.png', 'image')).toBeNull()
    expect(safeLink('/getfiles/greenleaf/a.png', 'image')).toBe('/getfiles/greenleaf/a.png')
  })
  it("a mail template's link that is one merge tag is kept; anything more around the tag is not", () => {
    expect(sanitizeDocumentHtml('<p>Click <a href="{link}">here</a></p>')).toBe('<p>Click <a href="{link}">here</a></p>')
    for (const bad of ['javascript:{link}', '{link}javascript:alert(1)', '{a}{b}', '{ link }', '{link']) {
      expect(sanitizeDocumentHtml(`<a href="${bad}">x</a>`), bad).toBe('<a>x</a>')
    }
  })
})

describe('pipeline price (item 1)', () => {
  const sizes = { base: 400, tables: new Map([['fac_plants', 400]]), arrays: new Map<string, number>() }
  const lookup = (as: string) => ({ $lookup: { from: 'fac_plants', localField: 'alive', foreignField: 'alive', as } })
  it('prices a $lookup by the pairs it compares and an $unwind of it by the table size', () => {
    expect(pipelineCost([{ $match: { alive: 'yes' } }, { $limit: 5 }], sizes)).toBe(400 + 400 + 5)
    expect(pipelineCost([lookup('a'), { $unwind: '$a' }, lookup('b'), { $unwind: '$b' }], sizes)).toBeGreaterThan(400 * 400 * 400 * 10)
    expect(pipelineCost([{ $limit: 10 }, lookup('a')], sizes)).toBe(400 + 10 + 10 * 400 * 10 + 10)
  })
  it('a stored array unwinds by its longest length; a computed one by the list limit', () => {
    const arrays = new Map([['rows', 3]])
    expect(pipelineCost([{ $unwind: '$rows' }], { ...sizes, arrays })).toBe(400 + 1200)
    expect(pipelineCost([{ $set: { rows: [1, 2] } }, { $unwind: '$rows' }], { ...sizes, arrays })).toBe(400 + 400 + 400 * 1000)
  })
})
