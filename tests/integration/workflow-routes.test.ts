/**
 * SPEC §2.3 Workflows: a module with allowed workflows has a route /{Module}Workflows with the
 * module's route prefix (/CulWorkflows, /DisWorkflows), on the real database (the seeded
 * workflows, an organisation's `wid`); the module's name (/CultivationWorkflows, an old link)
 * leads there.
 */
import { resolveScreen, workflowAlias, workflowPath } from '#app/auth/screens.server'
import type { SessionUser } from '#app/auth/entitlements'
import { loadEnv } from '#app/config/env.server'
import { WORKFLOWS } from '#app/seed/core'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
const actor = { uid: 'u-seed', requestId: 'wf-test' }
const user = (modules: string[] | null) => ({ _id: 'u1', uid: 'u1', email: 'u1@x.test', role: 'user', org: 'wfa', props: { facilities: ['wfa'], modules: { wfa: modules } } }) as unknown as SessionUser

beforeAll(async () => {
  t = await openTestDatabase()
  await ensurePlatform(t, loadEnv({ DATA_DIR: tmpDir() }))
  await t.store.insertMany(actor, 'auth', 'auth_workflows', WORKFLOWS)
  await t.store.insert(actor, 'auth', 'org', { _id: 'wfa', name: 'wfa', fullName: 'WF A', wid: ['wf-cul-harvest', 'wf-dis-order', 'wf-fin-close'] })
})
afterAll(() => t?.cleanup())

describe('/{Module}Workflows', () => {
  it('lives at the module route prefix: /CulWorkflows, /DisWorkflows, /FinWorkflows', async () => {
    expect([workflowPath('cul'), workflowPath('dis'), workflowPath('fin'), workflowPath('crm')]).toEqual(['/CulWorkflows', '/DisWorkflows', '/FinWorkflows', '/CrmWorkflows'])
    const dis = await resolveScreen(t, user(null), 'wfa', '/DisWorkflows')
    expect(dis).toMatchObject({ route: { path: '/DisWorkflows', module: 'dis' }, workflows: [{ _id: 'wf-dis-order', name: 'Order to manifest' }] })
    const cul = await resolveScreen(t, user(null), 'wfa', '/CulWorkflows')
    expect(cul).toMatchObject({ route: { path: '/CulWorkflows' }, workflows: [{ _id: 'wf-cul-harvest' }] })
  })

  it('is there only for modules with allowed workflows, and only for users entitled to the module', async () => {
    expect(await resolveScreen(t, user(null), 'wfa', '/MetrcWorkflows')).toBe('unknown') // no Metrc workflow allowed
    expect(await resolveScreen(t, user(['cul']), 'wfa', '/DisWorkflows')).toBe('forbidden')
    expect(await resolveScreen(t, user(['cul']), 'wfa', '/CulWorkflows')).toMatchObject({ route: { path: '/CulWorkflows' } })
  })

  it('the module name is not the address; an old /CultivationWorkflows link is sent to /CulWorkflows', async () => {
    expect(await resolveScreen(t, user(null), 'wfa', '/CultivationWorkflows')).toBe('unknown')
    expect(workflowAlias('/CultivationWorkflows')).toBe('/CulWorkflows')
    expect(workflowAlias('/DistributionWorkflows/')).toBe('/DisWorkflows')
    expect(workflowAlias('/CulWorkflows')).toBeNull()
    expect(workflowAlias('/MetrcWorkflows')).toBeNull() // name and prefix are the same: no loop
    expect(workflowAlias('/supWorkflows')).toBeNull()
  })
})
