/** The table screen's URL state (issue 5): one zod schema reads it, links write it back. */
import { csvField, csvLine, parseCsv } from '#app/screens/csv'
import { listQuerySchema, parseListQuery } from '#app/screens/table-query'
import { LIST_KEYS, listQueryToSearch, withQuery } from '#app/screens/table-url'
import { cursorToken, readCursor } from '#app/screens/table-page.server'
import { pageSizeFor } from '#app/components/table/table-screen'
import { fileHref } from '#app/components/table/table-cells'

const parse = (s: string) => parseListQuery(new URLSearchParams(s))

describe('list view in the URL', () => {
  it('names the same settings in the schema and in links', () => {
    expect(Object.keys(listQuerySchema.shape).sort()).toEqual([...LIST_KEYS].sort())
  })

  it('reads every setting', () => {
    const { query, notices } = parse('page=3&size=40&sort=tag&dir=desc&col=strain&q=kush&df=planted&range=last-7-days&all=1&hide=notes,room&hidden=1&font=12&open=a1,b-2')
    expect(notices).toEqual([])
    expect(query).toEqual({ page: 3, size: 40, sort: 'tag', dir: 'desc', col: 'strain', q: 'kush', df: 'planted', range: 'last-7-days', all: '1', hide: ['notes', 'room'], hidden: '1', font: 12, open: ['a1', 'b-2'] })
  })

  it('drops bad and unknown settings with a notice each, and keeps the rest', () => {
    const { query, notices } = parse("page=-1&size=25&sort=drop table&dir=up&font=13&range=someday&from=2026-02-30&hide=a,b;c&open=<x>&q=ok&evil=1&kiosk=1&name=fac_plants")
    expect(query).toEqual({ q: 'ok' })
    expect(notices).toHaveLength(10)
    for (const n of ['page="-1"', 'size="25"', 'sort="drop table"', 'dir="up"', 'font="13"', 'range="someday"', 'from="2026-02-30"', 'hide="a,b;c"', 'open="<x>"', '"evil"']) expect(notices.join('\n')).toContain(n)
  })

  it('refuses a range whose start is after its end, and a shortcut mixed with dates', () => {
    expect(parse('from=2026-03-05&to=2026-03-01')).toEqual({ query: {}, notices: ['Ignored the date range: 2026-03-05 is after 2026-03-01.'] })
    expect(parse('range=today&from=2026-03-01').query).toEqual({ range: 'today' })
  })

  it('bounds what a URL can ask for', () => {
    expect(parse('page=100001').notices[0]).toMatch(/past the last page/)
    expect(parse(`q=${'x'.repeat(201)}`).notices[0]).toMatch(/200 characters/)
    expect(parse(`open=${Array.from({ length: 41 }, (_, i) => `r${i}`).join(',')}`).query.open).toBeUndefined()
  })

  it('writes a view back in one canonical order, without defaults, keeping page parameters', () => {
    const { query } = parse('font=12&sort=tag&page=1&q=a b&hide=x,y')
    expect(listQueryToSearch(query, new URLSearchParams('kiosk=1&msg=idle&name=fac_plants'))).toBe('?name=fac_plants&kiosk=1&sort=tag&q=a+b&hide=x%2Cy&font=12')
    expect(listQueryToSearch({})).toBe('')
    // what a link writes, the schema reads back unchanged
    const full = parse('page=2&size=10&sort=tag&dir=desc&col=strain&q=k&df=planted&from=2026-01-01&to=2026-01-31&all=1&hide=a&hidden=1&font=10&open=r1').query
    expect(parse(listQueryToSearch(full).slice(1)).query).toEqual(full)
  })

  it('goes back to page 1 when what is shown changes, not when only the look does', () => {
    const q = { page: 4, sort: 'tag' }
    expect(withQuery(q, { q: 'kush' })).toEqual({ sort: 'tag', q: 'kush' })
    expect(withQuery(q, { size: 40 })).toEqual({ sort: 'tag', size: 40 })
    expect(withQuery(q, { font: 10 })).toEqual({ page: 4, sort: 'tag', font: 10 })
    expect(withQuery(q, { sort: undefined })).toEqual({})
  })

  it("keeps a page link's cursor only with its page: another page or another view drops it", () => {
    const q = { page: 4, after: 'abc', sort: 'tag' }
    expect(withQuery(q, { font: 10 })).toEqual({ page: 4, after: 'abc', sort: 'tag', font: 10 })
    expect(withQuery(q, { page: 5, after: 'def' })).toEqual({ page: 5, after: 'def', sort: 'tag' })
    expect(withQuery(q, { page: 3, before: 'xyz' })).toEqual({ page: 3, before: 'xyz', sort: 'tag' })
    expect(withQuery(q, { page: 1 })).toEqual({ page: 1, sort: 'tag' })
    expect(withQuery(q, { dir: 'desc' })).toEqual({ sort: 'tag', dir: 'desc' })
    expect(parse('page=3&after=eyJhIjoxfQ').query).toEqual({ page: 3, after: 'eyJhIjoxfQ' })
    expect(parse('page=3&after=not+a+token').notices).toEqual(['Ignored after="not a token": is not a page link.'])
  })

  it('binds a cursor token to the sort it was made for', () => {
    const sort = { key: 'planted', dir: 'desc' }
    for (const c of [{ v: '2026-03-01T19:30:00.000Z', id: 'p1' }, { v: null, id: 'p2' }, { v: 'ünïcode "quoted"', id: 'x:y' }]) {
      const token = cursorToken(c, sort)
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/)
      expect(readCursor(token, sort)).toEqual(c)
      expect(readCursor(token, { key: 'planted', dir: 'asc' })).toBeNull()
      expect(readCursor(token, { key: 'tag', dir: 'desc' })).toBeNull()
    }
    expect(readCursor('garbage', sort)).toBeNull()
    expect(readCursor(Buffer.from(JSON.stringify(['planted', 'desc', 5, 'p1'])).toString('base64url'), sort)).toBeNull()
    expect(readCursor(Buffer.from(JSON.stringify(['planted', 'desc', 'v', ''])).toString('base64url'), sort)).toBeNull()
  })
})

describe('table screen helpers', () => {
  it('picks rows per page from the window height (SPEC §2.5)', () => {
    expect([300, 399, 400, 700, 900, 901, 1200].map(pageSizeFor)).toEqual([10, 10, 20, 20, 20, 30, 30])
  })

  it('turns stored file references into safe addresses', () => {
    expect(fileHref('https://cdn.example/a.png', 'greenleaf')).toBe('https://cdn.example/a.png')
    expect(fileHref('/getfiles/greenleaf/a.png', 'greenleaf')).toBe('/getfiles/greenleaf/a.png')
    expect(fileHref('label 1.pdf', 'greenleaf')).toBe('/getfiles/greenleaf/label%201.pdf')
    expect(fileHref('javascript:alert(1)', 'greenleaf')).toBe('/getfiles/greenleaf/javascript%3Aalert(1)')
    expect(fileHref('//evil.example/x', 'greenleaf')).toBe('/getfiles/greenleaf/%2F%2Fevil.example%2Fx')
    expect(fileHref('', 'greenleaf')).toBeNull()
  })
})

describe('CSV', () => {
  it('quotes what needs quoting and defuses formulas, but not negative numbers', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvField('@cmd')).toBe("'@cmd")
    expect(csvField('-12.5')).toBe('-12.5')
    expect(csvField('+1 555')).toBe("'+1 555")
  })

  it('defuses a cell starting with TAB or CR, and a sum that only starts like a number', () => {
    expect(csvField('\t=1+1')).toBe("'\t=1+1")
    expect(csvField('\tplain')).toBe("'\tplain")
    expect(csvField('\r=cmd')).toBe(`"'\r=cmd"`)
    expect(csvField("-1+1+cmd|' /C calc'!A0")).toBe(`'-1+1+cmd|' /C calc'!A0`)
    expect(csvField('-1+1')).toBe("'-1+1")
    expect(csvField('+1')).toBe("'+1")
    // and what a spreadsheet reads back starts with the apostrophe, whatever the quoting
    for (const bad of ['\t=1+1', '\r=cmd', "-1+1+cmd|' /C calc'!A0", '=1', '@SUM(A1)']) expect(parseCsv(csvLine([bad]))[0][0]).toBe(`'${bad}`)
  })

  it('reads back what it writes', () => {
    const rows = [['a', 'b,c', 'd "e"'], ['x\r\ny', '', 'z']]
    expect(parseCsv(rows.map(csvLine).join(''))).toEqual(rows)
  })
})
