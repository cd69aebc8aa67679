/** The engine's extension points a business area plugs into (decision 022), each seen to take effect. */
import { registerSaveRules, runSaveRules, type SaveRule } from '#app/forms/save-rules'
import { planPushes, pushesFromTable, registerPushPlanner } from '#app/metrc/outbox/pushes.server'
import { allSchemaInputs, registerSeedGroup } from '#app/seed/index.server'

describe('extension points for business areas', () => {
  it('a registered save rule runs for its table, once however often it is registered', () => {
    const calls: string[] = []
    const rule: SaveRule = (r) => (calls.push(String(r.n)), Number(r.n) > 3 ? { kind: 'error', message: 'too many', fields: ['n'] } : { kind: 'continue' })
    registerSaveRules('test_area_rows', rule)
    registerSaveRules('test_area_rows', rule)
    expect(runSaveRules('test_area_rows', { n: 2 }, { mode: 'create' })).toEqual({ kind: 'continue' })
    expect(runSaveRules('test_area_rows', { n: 5 }, { mode: 'update' })).toEqual({ kind: 'error', message: 'too many', fields: ['n'] })
    expect(calls).toEqual(['2', '5'])
    expect(runSaveRules('another_table', { n: 5 }, { mode: 'create' })).toEqual({ kind: 'continue' })
  })

  it('a registered push planner is asked for its table', async () => {
    expect(pushesFromTable('test_area_orders')).toBe(false)
    registerPushPlanner('test_area_orders', async (_before, after) => [{ endpoint: 'POST /sales/v2/receipts', body: { n: after.n }, label: 'a receipt' } as never])
    expect(pushesFromTable('test_area_orders')).toBe(true)
    const planned = await planPushes('test_area_orders', null, { n: 1 }, { org: 'x', timeZone: 'UTC', record: async () => null })
    expect(planned).toEqual([{ endpoint: 'POST /sales/v2/receipts', body: { n: 1 }, label: 'a receipt' }])
  })

  it("a registered seed group's schemas ship with the product", () => {
    registerSeedGroup({ name: 'test-area', schemas: [{ key: 'test_area_rows', label: 'Rows', fields: [] }] })
    expect(allSchemaInputs().map((s) => (s as { key: string }).key)).toContain('test_area_rows')
  })
})
