/**
 * Issue 8's live updates in real browsers: two people on the same table screen — a save in one
 * highlights Refresh in the other (SPEC §9: debounced 0.5 s), not in the writer's own; a
 * notification published on the bus for a user (by the server's side, e.g. a workflow: a device may
 * not, issue 20 item 4) pops up as a
 * toast on that user's page, and not on the other's; a global message a super writes on
 * /SupGlobalMessages toasts for the people of that facility. Live updates need JavaScript.
 */
import fs from 'node:fs'
import path from 'node:path'
import mqtt from 'mqtt'
import { serverPassword, SERVER_USERNAME } from '../../app/bus/credentials.server'
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
  // the server's side of the bus (as a workflow would publish): the secret the e2e server generated in its data folder
  const secret = fs.readFileSync(path.join(E2E.dataDir, 'session-secret'), 'utf8').trim()
  const c = mqtt.connect(`mqtt://127.0.0.1:${E2E.mqttPort}`, { username: SERVER_USERNAME, password: serverPassword(secret), reconnectPeriod: 0 })
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
    // every table event B's page gets, with when (one save is one event)
    await pageB.evaluate(() => {
      const w = window as unknown as { tableEvents: Array<{ at: number; detail: unknown }> }
      w.tableEvents = []
      window.addEventListener('canopy:table', (e) => w.tableEvents.push({ at: Date.now(), detail: (e as CustomEvent).detail }))
    })

    // A edits the first plant's notes and saves
    const [plant] = (await database.store.page(FAC, 'fac_plants', { offset: 0, limit: 1, sort: { key: 'tag', dir: 'asc' }, activeOnly: true })).rows
    await pageA.goto(`/culPlants/${encodeURIComponent(plant._id)}/edit`)
    const before = (await database.store.get(FAC, 'fac_plants', plant._id))!.ts
    await pageA.getByRole('button', { name: 'Save' }).click()
    await expect(pageA).toHaveURL(/\/culPlants\?msg=saved$/)
    expect((await database.store.get(FAC, 'fac_plants', plant._id))!.ts).not.toBe(before)
    await expect(refreshB).toHaveAccessibleName('Refresh: this table has changed', { timeout: 5000 })
    // the writer's own page is not told about its own save (its Refresh would have lit by now)
    await pageA.waitForTimeout(700)
    await expect(pageA.getByRole('link', { name: /^Refresh/ })).toHaveAccessibleName('Refresh')
    expect(await pageB.evaluate(() => (window as unknown as { tableEvents: Array<{ detail: unknown }> }).tableEvents.map((e) => e.detail))).toEqual([{ collection: 'fac_plants' }])
    await refreshB.click()
    await expect(pageB).toHaveURL(/\/culPlants$/)
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

test('a global message written on /SupGlobalMessages toasts for the people of that facility', async ({ browser, createUser, database }) => {
  test.setTimeout(90_000)
  const title = `E2E fire drill ${Date.now().toString(36)}`
  const boss = await createUser({ role: 'super' })
  const worker = await createUser({ modules: { [FAC]: ['cul'] } })
  const ctxS = await browser.newContext()
  const ctxW = await browser.newContext()
  const [sup, page] = [await ctxS.newPage(), await ctxW.newPage()]
  try {
    await login(page, worker.email, worker.password)
    await page.getByRole('region', { name: 'Signed in' }).waitFor()
    await page.goto('/culPlants')
    await expect(page.locator('[data-connection="connected"]')).toBeVisible()

    await login(sup, boss.email, boss.password)
    await sup.getByRole('button', { name: 'Greenleaf Cultivation, Salinas' }).click()
    await sup.getByRole('region', { name: 'Signed in' }).waitFor()
    await sup.goto('/SupGlobalMessages/new')
    await sup.getByLabel('Title').fill(title)
    await sup.getByLabel('Body').fill('All staff to the car park at 3 pm.')
    await sup.getByLabel('From').fill('Safety')
    await sup.getByRole('button', { name: 'Save' }).click()
    await expect(sup).toHaveURL(/\/SupGlobalMessages\?msg=saved$/)

    const toast = page.locator('[data-toast]').filter({ hasText: title })
    await expect(toast).toContainText('All staff to the car park at 3 pm.', { timeout: 10_000 })
    await expect(toast).toContainText('Safety')
  } finally {
    await ctxS.close()
    await ctxW.close()
    for (const d of await database.store.find('auth', 'inf_global', { title })) await database.store.remove(actor, 'auth', 'inf_global', d._id)
  }
})
