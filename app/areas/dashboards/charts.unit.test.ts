/** The chart kit's pure parts and the table URL's exact-match setting the figures link with. */
import { createElement as h } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { parseListQuery } from '#app/screens/table-query'
import { eqOf, eqPairs, listQueryToSearch } from '#app/screens/table-url'
import { ChartCard } from './charts/charts'
import { KpiTile } from './charts/kpi-tile'
import { changeOf, niceMax } from './charts/types'
import { tableLink } from './links'
import { readPeriod } from './period'

describe('eq in the table URL', () => {
  it('round-trips field:value pairs and refuses a bad field name', () => {
    const href = tableLink('/culPlants', { eq: [['room', 'r-1'], ['phase', 'Flowering']], df: 'phaseDate', to: '2026-03-01', all: true })
    expect(href).toBe('/culPlants?eq=room%3Ar-1%3Bphase%3AFlowering&df=phaseDate&to=2026-03-01&all=1')
    const { query, notices } = parseListQuery(new URL(`http://x${href}`).searchParams)
    expect(notices).toEqual([])
    expect(eqPairs(query.eq)).toEqual([['room', 'r-1'], ['phase', 'Flowering']])
    expect(eqOf(eqPairs('a:1;b:'))).toBe('a:1;b:')
    expect(parseListQuery(new URLSearchParams('eq=1bad:x')).notices[0]).toMatch(/field:value/)
    expect(listQueryToSearch({ eq: 'phase:Clone', page: 2 })).toBe('?page=2&eq=phase%3AClone')
  })
})

describe('charts', () => {
  it('every bar and slice is a link carrying its record count; the numbers are in a table too', () => {
    const html = renderToStaticMarkup(
      h(ChartCard, { id: 'c', chart: { kind: 'bars', title: 'Wet weight', unit: 'lb', bars: [{ label: 'OG Kush', value: 12.5, count: 3, href: '/CulHarvest?eq=strain%3As1' }, { label: 'Haze', value: 4, count: 1 }] } }),
    )
    expect(html).toContain('href="/CulHarvest?eq=strain%3As1"')
    expect(html).toContain('data-count="3"')
    expect(html).toContain('<title>OG Kush: 12.5 lb (3 records)</title>')
    expect(html).toContain('<caption class="sr-only">Wet weight</caption>')
    const donut = renderToStaticMarkup(h(ChartCard, { id: 'd', chart: { kind: 'donut', title: 'By phase', slices: [{ label: 'Clone', value: 1, href: '/a' }, { label: 'Veg', value: 3, href: '/b' }] } }))
    expect(donut.match(/<path d="M/g)).toHaveLength(2)
  })

  it('a KPI tile says its change against the previous period', () => {
    expect(changeOf(12, 10)).toEqual({ text: '+20% vs previous period (10)', dir: 'up' })
    expect(changeOf(0, 0)?.dir).toBe('flat')
    expect(changeOf(5, 0)?.text).toMatch(/was 0/)
    const html = renderToStaticMarkup(h(KpiTile, { kpi: { label: 'Deaths', value: 4, previous: 2, href: '/culPlants?eq=phase%3ADestroyed', tone: 'bad' } }))
    expect(html).toContain('▲ +100% vs previous period (2)')
    expect(html).toContain('data-tone="bad"')
    expect(niceMax(7)).toBe(10)
    expect(niceMax(230)).toBe(250)
  })
})

describe('period', () => {
  it('reads a shortcut or custom days in the facility zone, with the previous period as long', () => {
    const now = new Date('2026-03-10T03:00:00Z') // 9 March in Los Angeles
    const { period } = readPeriod(new URLSearchParams('range=last-7-days'), 'America/Los_Angeles', now)
    expect(period).toMatchObject({ fromDay: '2026-03-03', toDay: '2026-03-09', days: 7, today: '2026-03-09' })
    expect(period.previous).toMatchObject({ fromDay: '2026-02-24', toDay: '2026-03-02' })
    // 8 March 2026 is a 23-hour day there: the span is in instants of that zone
    expect(period.from).toBe('2026-03-03T08:00:00.000Z')
    expect(period.to).toBe('2026-03-10T07:00:00.000Z')
    const bad = readPeriod(new URLSearchParams('from=2026-04-01&to=2026-03-01'), 'UTC', now)
    expect(bad.notices[0]).toMatch(/is after/)
  })
})
