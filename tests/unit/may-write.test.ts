/**
 * The one rule for "may write" (issue 20 item 5, decision 055): `routeEditable` decides for the
 * table screen and for /dt/v1 alike; only screens that edit records (table, calendar, form, prefs)
 * grant it, never a dashboard, a read-only screen or a table whose schema is not editable.
 */
import { routeEditable } from '#app/records/access.server'
import { findRoute, ROUTES } from '#app/route-map'
import type { TableSchema } from '#app/schemas/table-schema'

const editable = { key: 'x', label: 'X', editable: true, fields: [], readonly: [] } as unknown as TableSchema
const route = (path: string) => findRoute(path)!

describe('routeEditable', () => {
  it('a dashboard edits nothing, whatever its table', () => {
    const boards = ROUTES.filter((r) => r.kind === 'dashboard')
    expect(boards.map((r) => r.path)).toContain('/DshSensors')
    for (const r of boards) expect(routeEditable(r, editable), r.path).toBe(false)
  })

  it('a table, the calendar and a preferences screen edit their table unless read-only or the schema says not', () => {
    for (const p of ['/culPlants', '/SetSensorDevices', '/SchCalendar', '/MetrcPrefs']) expect(routeEditable(route(p), editable), p).toBe(true)
    expect(routeEditable(route('/MetrcUnits'), editable)).toBe(false)
    expect(routeEditable(route('/culPlants'), { ...editable, editable: false })).toBe(false)
    expect(routeEditable(route('/culPlants'), undefined)).toBe(false)
  })

  it('screens that show no rows to edit (help, documents, pages) never grant a write', () => {
    for (const r of ROUTES.filter((x) => !['table', 'calendar', 'form', 'prefs'].includes(x.kind))) expect(routeEditable(r, editable), r.path).toBe(false)
  })
})
