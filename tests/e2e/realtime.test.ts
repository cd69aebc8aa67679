/**
 * Issue 8's live updates in real browsers: two people on the same table screen — a save in one
 * highlights Refresh in the other (SPEC §9: debounced 0.5 s); a notification published on the bus
 * for a user (by a device or bot of the facility) pops up as a toast on that user's page, and not
 * on the other's. Live updates need JavaScript.
 */
import mqtt from 'mqtt'
import { issueDeviceKey } from '../../app/bus/credentials.server'
import { E2E } from './env'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'
const actor = { uid: 'e2e-fixture' }

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'live updates need JavaScript')

test("a save in one browser highlights Refresh in another's; a notification toasts for its user only", async ({ browser, createUser, database }) => {
  test.setTimeout(120_000)
  const a = await createUser({ modules: { [FAC]: ['cul'] } })
  const b = await createUser({ modules: { [FAC]: ['cul'] } })
  const ctxA = await browser.newContext()
  const ctxB = await browser.newContext()
  const [pageA, pageB] = [await ctxA.newPage(), await ctxB.newPage()]
  const msg = await database.store.insert(actor, 'auth', 'inf_global', { title: 'E2E inspection', body: 'The inspector arrives at 2 pm.', from: 'Compliance', expanded: 'no' })
  const bot = await issueDeviceKey(database, FAC, 'e2e-workflow-bot', 'e2e')
  const c = mqtt.connect(`mqtt://127.0.0.1:${E2E.mqttPort}`, { username: bot.username, password: bot.password, reconnectPeriod: 0 })
  try {
    for (const [p, u] of [
      [pageA, a],
      [pageB, b],
    ] as const) {
      await login(p, u.email, u.password)
      await p.getByRole('region', { name: 'Signed in' }).waitFor()
      await p.goto('/culPlants')
      await expect(p.locator('[data-connection="connected"]')).toBeVisible()
    }
    const refreshB = pageB.getByRole('link', { name: /^Refresh/ })
    await expect(refreshB).toHaveAccessibleName('Refresh')

    // A edits the first plant's notes and saves
    const [plant] = (await database.store.page(FAC, 'fac_plants', { offset: 0, limit: 1, sort: { key: 'tag', dir: 'asc' }, activeOnly: true })).rows
    await pageA.goto(`/culPlants/${encodeURIComponent(plant._id)}/edit`)
    const before = (await database.store.get(FAC, 'fac_plants', plant._id))!.ts
    await pageA.getByRole('button', { name: 'Save' }).click()
    await expect(pageA).toHaveURL(/\/culPlants\?msg=saved$/)
    expect((await database.store.get(FAC, 'fac_plants', plant._id))!.ts).not.toBe(before)
    await expect(refreshB).toHaveAccessibleName('Refresh: this table has changed', { timeout: 5000 })
    await refreshB.click()
    await expect(pageB.getByRole('link', { name: /^Refresh/ })).toHaveAccessibleName('Refresh')

    // a notification for B
    if (!c.connected) await new Promise<void>((resolve, reject) => (c.once('connect', () => resolve()), c.once('error', reject)))
    await c.publishAsync(`${FAC}/notification/${b.uid}`, JSON.stringify({ id: msg._id }))
    const toast = pageB.locator('[data-toast]').filter({ hasText: 'E2E inspection' })
    await expect(toast).toContainText('The inspector arrives at 2 pm.')
    await expect(toast).toContainText('Compliance')
    // it stays while hovered, and goes about 10 s after it appeared otherwise
    await toast.hover()
    await pageB.waitForTimeout(11_000)
    await expect(toast).toBeVisible()
    await pageB.mouse.move(0, 0)
    await expect(toast).toBeHidden({ timeout: 12_000 })
    await expect(pageA.locator('[data-toast]').filter({ hasText: 'E2E inspection' })).toHaveCount(0)
  } finally {
    c.end(true)
    await ctxA.close()
    await ctxB.close()
    await database.store.remove(actor, 'auth', 'inf_global', msg._id)
  }
})
