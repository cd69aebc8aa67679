/**
 * The drawer's filter and current screen, and the breadcrumb trail (issue 29 item 4; decision 061):
 * the pure parts the shell renders on the server and in the browser.
 */
import { breadcrumbTrail } from '#app/components/breadcrumb-trail'
import { filterMenu, isCurrentScreen, isCurrentView } from '#app/components/menu-filter'
import { viewSearch } from '#app/screens/table-url'
import { recordName } from '#app/forms/record-title'
import { parseListQuery } from '#app/screens/table-query'

const MENU = [
  { name: 'Cultivation', items: [{ path: '/CulWorkflows', title: 'Workflows' }, { path: '/culPlants', title: 'Plants' }, { path: '/CulPlantings', title: 'Plantings' }] },
  { name: 'Distribution', items: [{ path: '/DisSales', title: 'Orders' }, { path: '/DisOrderTable', title: 'Order Table' }] },
  { name: 'Help', items: [{ path: '/HelpSensors', title: 'Sensors' }] },
]

describe('filterMenu', () => {
  it('keeps every group for no words, and narrows to the screens whose title holds them', () => {
    expect(filterMenu(MENU, '  ')).toBe(MENU)
    expect(filterMenu(MENU, 'plant')).toEqual([{ name: 'Cultivation', items: [MENU[0].items[1], MENU[0].items[2]] }])
    expect(filterMenu(MENU, 'ORDER').map((g) => g.items.map((i) => i.title))).toEqual([['Orders', 'Order Table']])
  })
  it('a group whose name holds the words keeps all its screens; nothing matching is an empty list', () => {
    expect(filterMenu(MENU, 'distrib')).toEqual([MENU[1]])
    expect(filterMenu(MENU, 'zzz')).toEqual([])
  })
  it('matches the words in the user’s language too, accents or not', () => {
    const es: Record<string, string> = { Plantings: 'Plantaciones', Orders: 'Pedidos', Help: 'Ayuda', Sensors: 'Sensores' }
    const t = (k: string) => es[k] ?? k
    expect(filterMenu(MENU, 'pedido', t).flatMap((g) => g.items.map((i) => i.path))).toEqual(['/DisSales'])
    expect(filterMenu([{ name: 'Configuración', items: [{ path: '/SetTax', title: 'Tax Rates' }] }], 'configuracion')).toHaveLength(1)
  })
})

describe('isCurrentScreen', () => {
  it('is the screen itself and its record pages, whatever the case, never a longer name', () => {
    expect(isCurrentScreen('/culPlants', '/culPlants')).toBe(true)
    expect(isCurrentScreen('/culPlants', '/culplants/')).toBe(true)
    expect(isCurrentScreen('/culPlants', '/culPlants/p-1/edit')).toBe(true)
    expect(isCurrentScreen('/DisSales', '/DisSalesX')).toBe(false)
    expect(isCurrentScreen('/culPlants', '/Welcome')).toBe(false)
  })
})

describe('isCurrentView (a pinned saved view, decision 073)', () => {
  it('is the same screen with the same view settings, whatever the page, size, facility or notice', () => {
    const href = '/culPlants?sort=tag&dir=desc&q=ODD&hide=room%2Cnotes'
    expect(isCurrentView(href, '/culPlants', '?facility=greenleaf&size=30&sort=tag&dir=desc&q=ODD&hide=room%2Cnotes&page=2&done=Saved')).toBe(true)
    expect(isCurrentView(href, '/CULPLANTS/', '?sort=tag&dir=desc&q=ODD&hide=room%2Cnotes')).toBe(true)
    expect(isCurrentView(href, '/culPlants', '?sort=tag&dir=asc&q=ODD&hide=room%2Cnotes')).toBe(false)
    expect(isCurrentView(href, '/culPlants', '?sort=tag&dir=desc&q=ODD')).toBe(false)
    expect(isCurrentView(href, '/CulPlantings', '?sort=tag&dir=desc&q=ODD&hide=room%2Cnotes')).toBe(false)
    expect(isCurrentView('/culPlants', '/culPlants', '?size=20&facility=x')).toBe(true)
  })
  it('viewSearch keeps the view settings in one order, the first of a repeated one', () => {
    expect(viewSearch('?q=a&sort=tag&page=3&open=x&after=abc&q=b&font=12&menu=pl')).toBe('sort=tag&q=a&font=12')
  })
})

describe('breadcrumbTrail', () => {
  it('a screen: module › screen, the screen last without a link', () => {
    expect(breadcrumbTrail(MENU, '/culPlants')).toEqual([{ label: 'Cultivation' }, { label: 'Plants' }])
    expect(breadcrumbTrail(MENU, '/CulWorkflows')).toEqual([{ label: 'Cultivation' }, { label: 'Workflows' }])
  })
  it('a record: module › screen (a link) › the record by its name, else its id', () => {
    expect(breadcrumbTrail(MENU, '/culPlants/p%201/edit', 'PLANT-0042')).toEqual([{ label: 'Cultivation' }, { label: 'Plants', href: '/culPlants' }, { label: 'PLANT-0042', href: '/culPlants/p%201' }, { label: 'Edit' }])
    expect(breadcrumbTrail(MENU, '/culPlants/p%201/edit')).toEqual([{ label: 'Cultivation' }, { label: 'Plants', href: '/culPlants' }, { label: 'p 1', href: '/culPlants/p%201' }, { label: 'Edit' }])
    expect(breadcrumbTrail(MENU, '/culPlants/p%201', 'PLANT-0042')).toEqual([{ label: 'Cultivation' }, { label: 'Plants', href: '/culPlants' }, { label: 'PLANT-0042' }])
    expect(breadcrumbTrail(MENU, '/DisSales/o-9')).toEqual([{ label: 'Distribution' }, { label: 'Orders', href: '/DisSales' }, { label: 'o-9' }])
    expect(breadcrumbTrail(MENU, '/culPlants/new')).toEqual([{ label: 'Cultivation' }, { label: 'Plants', href: '/culPlants' }, { label: 'New record' }])
  })
  it('a record’s history links back to the record', () => {
    expect(breadcrumbTrail(MENU, '/culPlants/p-1/history')).toEqual([{ label: 'Cultivation' }, { label: 'Plants', href: '/culPlants' }, { label: 'p-1', href: '/culPlants/p-1' }, { label: 'History' }])
  })
  it('nothing for a page outside the drawer or a screen the user is not entitled to', () => {
    expect(breadcrumbTrail(MENU, '/Welcome')).toEqual([])
    expect(breadcrumbTrail(MENU, '/MetrcPlants')).toEqual([])
  })
})

describe('recordName', () => {
  const schema = { fields: [{ key: 'notes', show: false, type: 'text' }, { key: 'tag', show: true, type: 'text' }, { key: 'qty', show: true, type: 'number' }], defaultSort: { key: 'name' } }
  it('the sort field’s text, else the first shown text field, else null', () => {
    expect(recordName(schema, { name: 'Blue Dream', tag: 'T1' })).toBe('Blue Dream')
    expect(recordName(schema, { name: '', tag: 'T1', notes: 'x' })).toBe('T1')
    expect(recordName(schema, { qty: 3 })).toBeNull()
    expect(recordName(schema, null)).toBeNull()
    // sorted by a date: named by its text, not by a timestamp
    const byDate = { fields: [{ key: 'name', show: true, type: 'text' }, { key: 'harvested', show: true, type: 'date' }], defaultSort: { key: 'harvested' } }
    expect(recordName(byDate, { name: '2026-11-27 Blue Dream', harvested: '2026-11-27T19:15:00.000Z' })).toBe('2026-11-27 Blue Dream')
  })
})

describe('the table screen and the drawer’s filter', () => {
  it('reads past a scan search (?scan=1) without a notice', () => {
    expect(parseListQuery(new URLSearchParams('col=tag&q=1A4&scan=1'))).toEqual({ query: expect.objectContaining({ col: 'tag', q: '1A4' }), notices: [] })
  })

  it('reads past ?menu= without a notice', () => {
    expect(parseListQuery(new URLSearchParams('menu=plant&size=20'))).toEqual({ query: expect.objectContaining({ size: 20 }), notices: [] })
  })
})
