/**
 * The Help screens (SPEC §2.3 Help group): a real guide for every Help route, well formed, with
 * working links, the SPEC §9 gauge colour legend and the demo sensor dictionary's numbers.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { ROUTES } from '#app/route-map'
import { blockTexts, HELP_PAGES, helpPage, helpPhraseKeys, SENSOR_LEVELS, type HelpBlock, type HelpPage } from '#app/help/content'
import { HELP_UI, HelpView } from '#app/components/help-view'
import { makeCtx } from '#app/seed/kit'
import { seedPlatformRecords3 } from '#app/seed/records/platform-3'
import { CREDENTIAL_STATES } from '#app/auth/rules'

// The renderer needs only Link and the root loader data (phrases): render it outside a router.
vi.mock('@remix-run/react', () => ({
  Link: ({ to, children, ...rest }: { to: string; children?: unknown }) => createElement('a', { href: to, ...rest }, children as never),
  useRouteLoaderData: () => undefined,
}))

const HELP_ROUTES = ROUTES.filter((r) => r.kind === 'help')
/** general routes of SPEC §2.2 that are not in the route map */
const GENERAL = new Set(['/Welcome', '/ChangePassword', '/Preferences', '/Facility', '/Loggedout', '/SignUp'])
const pages = Object.values(HELP_PAGES)
const blocks = (p: HelpPage): HelpBlock[] => p.sections.flatMap((s) => s.blocks)
const links = (p: HelpPage) => blocks(p).filter((b): b is Extract<HelpBlock, { kind: 'link' }> => b.kind === 'link')
const allTexts = (p: HelpPage) => [p.title, p.intro, ...p.sections.flatMap((s) => [s.heading, ...s.blocks.flatMap(blockTexts)])]

/** an internal href: its path exists, and a #fragment names a section of that help page */
function internalTargetProblem(href: string): string | null {
  const [path, hash] = href.split('#')
  if (!ROUTES.some((r) => r.path === path) && !GENERAL.has(path)) return `${href}: no such route`
  if (hash !== undefined) {
    const target = HELP_PAGES[path]
    if (!target) return `${href}: a #fragment on a page that is not a help page`
    if (!target.sections.some((s) => s.id === hash)) return `${href}: no section #${hash}`
  }
  return null
}

describe('help content', () => {
  it('has a page for every Help route of the route map, and no other', () => {
    expect(HELP_ROUTES.map((r) => r.path).sort()).toEqual(['/HelpExternal', '/HelpProducts', '/HelpSensors', '/HelpTutorials', '/HelpVideos'])
    expect(Object.keys(HELP_PAGES).sort()).toEqual(HELP_ROUTES.map((r) => r.path).sort())
    for (const r of HELP_ROUTES) {
      const p = HELP_PAGES[r.path]
      expect(p.path, r.path).toBe(r.path)
      // the screen's h1 is the route title: the page must agree with it
      expect(p.title, r.path).toBe(r.title)
      expect(p.intro.length, r.path).toBeGreaterThan(40)
    }
  })

  it('finds a page by path the way the route guard does (case, trailing slash)', () => {
    expect(helpPage('/HelpSensors')?.path).toBe('/HelpSensors')
    expect(helpPage('/helpsensors/')?.path).toBe('/HelpSensors')
    expect(helpPage('/CulPlantings')).toBeUndefined()
  })

  it('gives every page at least three sections, each with at least one block', () => {
    for (const p of pages) {
      expect(p.sections.length, p.path).toBeGreaterThanOrEqual(3)
      for (const s of p.sections) {
        expect(s.heading.trim(), `${p.path}#${s.id}`).not.toBe('')
        expect(s.blocks.length, `${p.path}#${s.id}`).toBeGreaterThanOrEqual(1)
      }
    }
  })

  it('uses unique, URL-safe section ids that do not clash with the page chrome', () => {
    for (const p of pages) {
      const ids = p.sections.map((s) => s.id)
      expect(new Set(ids).size, p.path).toBe(ids.length)
      for (const id of ids) {
        expect(id, p.path).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/)
        expect(encodeURIComponent(id)).toBe(id)
        expect(['help-contents', 'screen-title'], p.path).not.toContain(id)
      }
    }
  })

  it('has well-formed blocks: no empty texts, tables with rows as wide as the head', () => {
    for (const p of pages) {
      for (const b of blocks(p)) {
        for (const text of blockTexts(b)) expect(text.trim(), `${p.path}: ${JSON.stringify(b).slice(0, 80)}`).not.toBe('')
        if (b.kind === 'steps' || b.kind === 'list') expect(b.items.length, p.path).toBeGreaterThanOrEqual(1)
        if (b.kind === 'table') {
          expect(b.rows.length, p.path).toBeGreaterThanOrEqual(1)
          for (const row of b.rows) expect(row.length, `${p.path}: ${row[0]}`).toBe(b.head.length)
        }
      }
    }
  })

  it('links only to routes that exist, and to external sites over https', () => {
    const problems: string[] = []
    for (const p of pages) {
      for (const l of links(p)) {
        if (l.href.startsWith('/')) {
          const problem = internalTargetProblem(l.href)
          if (problem) problems.push(`${p.path}: ${problem}`)
        } else if (!/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}(\/\S*)?$/.test(l.href)) {
          problems.push(`${p.path}: ${l.href} is neither internal nor https`)
        }
      }
      // addresses written in tables are rendered as links too
      for (const b of blocks(p)) {
        if (b.kind !== 'table') continue
        for (const cell of b.rows.flat()) {
          if (!cell.startsWith('/')) continue
          const problem = internalTargetProblem(cell)
          if (problem) problems.push(`${p.path} (table): ${problem}`)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('links the tutorials to the screens a new user needs first', () => {
    const hrefs = links(HELP_PAGES['/HelpTutorials']).map((l) => l.href)
    for (const h of ['/Welcome', '/CulPlantings', '/ChangePassword']) expect(hrefs).toContain(h)
    expect(links(HELP_PAGES['/HelpSensors']).map((l) => l.href)).toContain('/DshSensors')
    expect(links(HELP_PAGES['/HelpVideos']).map((l) => l.href)).toContain('/DocList')
    const external = links(HELP_PAGES['/HelpExternal']).map((l) => l.href)
    for (const h of ['https://www.metrc.com', 'https://cannabis.ca.gov']) expect(external).toContain(h)
  })

  it('shows the sensor gauge legend with exactly the five SPEC §9 colours, in order', () => {
    const legends = blocks(HELP_PAGES['/HelpSensors']).filter((b): b is Extract<HelpBlock, { kind: 'colour' }> => b.kind === 'colour')
    expect(legends).toHaveLength(1)
    expect(legends[0].rows.map((r) => r.colour)).toEqual(['red', 'orange', 'yellow', 'green', 'blue'])
    // the thresholds of SPEC §9: above error, above warn, above med, above low, otherwise
    expect(legends[0].rows.map((r) => r.when.toLowerCase())).toEqual([
      expect.stringContaining('above the error level'),
      expect.stringContaining('above the warn level'),
      expect.stringContaining('above the med level'),
      expect.stringContaining('above the low level'),
      expect.stringContaining('at or below the low level'),
    ])
    for (const p of pages) for (const b of blocks(p)) if (b.kind === 'colour') expect(b.rows.map((r) => r.colour), p.path).toEqual(['red', 'orange', 'yellow', 'green', 'blue'])
  })

  it("quotes the demo sensor dictionary's levels exactly", () => {
    const ctx = makeCtx({ org: 'auth', fullName: 'p', kind: 'lobby', state: 'CA', license: 'platform', timezone: 'UTC' }, new Date('2026-11-20T15:00:00Z'))
    const dictionary = seedPlatformRecords3(ctx).dictionary.map(({ code, label, short, units, max, low, med, warn, error }) => ({ code, label, short, units: units ?? '', max, low, med, warn, error }))
    expect(SENSOR_LEVELS).toEqual(dictionary)
    const table = blocks(HELP_PAGES['/HelpSensors']).find((b): b is Extract<HelpBlock, { kind: 'table' }> => b.kind === 'table' && b.head.includes('Gauge max'))!
    expect(table.rows).toHaveLength(SENSOR_LEVELS.length)
    for (const [i, s] of SENSOR_LEVELS.entries()) {
      expect(s.low < s.med && s.med < s.warn && s.warn < s.error && s.error <= s.max, s.code).toBe(true)
      expect(table.rows[i], s.code).toEqual([
        `${s.label} (${s.short})`,
        s.units || 'none',
        `${s.low} or less`,
        `over ${s.low} to ${s.med}`,
        `over ${s.med} to ${s.warn}`,
        `over ${s.warn} to ${s.error}`,
        `over ${s.error}`,
        String(s.max),
      ])
    }
    // every kind of sensor is explained
    const explained = blocks(HELP_PAGES['/HelpSensors']).find((b): b is Extract<HelpBlock, { kind: 'table' }> => b.kind === 'table' && b.head.includes('What it measures'))!
    for (const row of explained.rows) expect(row.slice(1).every((c) => c.length > 10), row[0]).toBe(true)
  })

  it('states the SPEC limits right: 10 s scale timeout, one-hour idle logout, counts 1 to 100, page sizes', () => {
    const text = allTexts(HELP_PAGES['/HelpTutorials']).join('\n')
    expect(text).toContain('within 10 seconds')
    expect(text).toContain('After one hour without use')
    expect(text).toContain('a whole number from 1 to 100')
    expect(text).toContain('Rows per page: 10, 20, 30, 40')
    expect(text).toContain('Original Count must be between 1 and 100')
    const external = allTexts(HELP_PAGES['/HelpExternal']).join('\n')
    expect(external).toContain(CREDENTIAL_STATES.join(', '))
  })

  it('contains no placeholder text and no demo passwords', () => {
    for (const p of pages) {
      for (const text of allTexts(p)) {
        expect(text, p.path).not.toMatch(/TODO|lorem|placeholder|TBD|Canopy#Demo1/i)
      }
    }
    expect(helpPhraseKeys().length).toBeGreaterThan(100)
  })
})

describe('help view', () => {
  const render = (p: HelpPage) => renderToStaticMarkup(createElement(HelpView, { page: p }))

  it('renders a table of contents that links to every section heading', () => {
    for (const p of pages) {
      const html = render(p)
      expect(html, p.path).toMatch(/<nav id="help-contents" aria-labelledby="help-contents-title"/)
      expect(html).toContain(`>${HELP_UI.contents}</p>`)
      for (const s of p.sections) {
        expect(html, s.id).toContain(`href="#${s.id}"`)
        expect(html, s.id).toContain(`<section id="${s.id}"`)
        expect(html, s.id).toMatch(new RegExp(`<h2 id="${s.id}-title"[^>]*>`))
      }
      expect(html.match(/<h2 /g)?.length, p.path).toBe(p.sections.length)
      // touch targets of the contents
      expect(html).toMatch(/<a href="#[a-z0-9-]+" class="flex min-h-11 items-center/)
    }
  })

  it('renders steps as an ordered list, tables with column headers, notes as notes', () => {
    const html = render(HELP_PAGES['/HelpTutorials'])
    expect(html).toContain('<ol')
    expect(html).toContain('<ul')
    expect(html).toContain('<th scope="col"')
    expect(html).toContain('role="note"')
    expect(html).toContain('href="/CulPlantings"')
  })

  it('opens external links safely and shows where they go', () => {
    const html = render(HELP_PAGES['/HelpExternal'])
    for (const l of links(HELP_PAGES['/HelpExternal']).filter((x) => !x.href.startsWith('/'))) {
      expect(html).toContain(`href="${l.href}" target="_blank" rel="noopener noreferrer"`)
    }
    expect(html).toContain('cannabis.ca.gov</span>')
  })

  it('names each legend colour in text next to its swatch', () => {
    const html = render(HELP_PAGES['/HelpSensors'])
    const order = ['red', 'orange', 'yellow', 'green', 'blue'] as const
    let last = -1
    for (const c of order) {
      const m = new RegExp(`<tr [^>]*data-colour="${c}"><th scope="row"[^>]*><span aria-hidden="true" class="[^"]*bg-${c}-\\d00"></span>${HELP_UI.colours[c]}</th>`).exec(html)
      expect(m, c).not.toBeNull()
      expect(m!.index, c).toBeGreaterThan(last)
      last = m!.index
    }
  })
})
