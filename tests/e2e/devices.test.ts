/**
 * Issue 8's device flows in a real browser against the server's own simulated devices (the demo's
 * DEMO_DEVICES, printing to E2E.printDir): Remote Scale fills the dead weight from the scale; a
 * scale that never answers times out with the reason shown and a failure sound sent to it; RFID
 * fills the plant tag from the reader; Print label makes the printer write a ZPL file. The buttons
 * need JavaScript (the no-JS run of save-rules checks they say so).
 */
import fs from 'node:fs'
import path from 'node:path'
import mqtt from 'mqtt'
import type { Page } from '@playwright/test'
import { issueDeviceKey, revokeDeviceKeys } from '../../app/bus/credentials.server'
import { E2E } from './env'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'
const actor = { uid: 'e2e-fixture' }

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'device buttons need JavaScript')

async function openPlant(page: Page, database: Parameters<Parameters<typeof test>[2]>[0]['database']) {
  const [plant] = (await database.store.page(FAC, 'fac_plants', { offset: 0, limit: 1, sort: { key: 'tag', dir: 'desc' }, activeOnly: true })).rows
  await page.goto(`/culPlants/${encodeURIComponent(plant._id)}/edit`)
  await expect(page.getByRole('heading', { name: 'Edit: Plants' })).toBeVisible()
  return plant
}

test('Remote Scale fills the dead weight from the simulated scale', async ({ page, createUser, database }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await openPlant(page, database)
  const button = page.locator('button[data-device="scale"][aria-describedby*="-dead_weight-"]') /* the dead weight's Remote Scale (the form has others) */
  await expect(button).toBeEnabled()
  await button.click()
  await expect(page.getByText(/^Read \d+(\.\d+)? lb$/)).toBeVisible({ timeout: 15_000 })
  const qty = Number(await page.locator('[name="dead_weight.qty"]').inputValue())
  expect(qty).toBeGreaterThan(0)
})

test('a scale that does not answer times out, says why, and is sent the failure sound', async ({ page, createUser, database }) => {
  test.setTimeout(60_000)
  const [mapping] = await database.store.find(FAC, 'sen_input_devices', { field: 'fac_plants.dead_weight' }, 1)
  const silent = 'SCA-SILENT-E2E'
  const key = await issueDeviceKey(database, FAC, silent, 'e2e')
  const heard: Array<Record<string, unknown>> = []
  const device = mqtt.connect(`mqtt://127.0.0.1:${E2E.mqttPort}`, { username: key.username, password: key.password, reconnectPeriod: 0 })
  try {
    await new Promise<void>((resolve, reject) => (device.once('connect', () => resolve()), device.once('error', reject)))
    await device.subscribeAsync(`${FAC}/request/${silent}`)
    device.on('message', (_t, p) => heard.push(JSON.parse(p.toString())))
    await database.store.update(actor, FAC, 'sen_input_devices', mapping._id, { deviceid: silent, args: 'other' })
    const grower = await createUser({ modules: { [FAC]: ['cul'] } })
    await login(page, grower.email, grower.password)
    await page.getByRole('region', { name: 'Signed in' }).waitFor()
    await openPlant(page, database)
    await page.locator('button[data-device="scale"][aria-describedby*="-dead_weight-"]') /* the dead weight's Remote Scale (the form has others) */.click()
    await expect(page.getByText('Waiting for the scale…')).toBeVisible()
    await expect(page.getByText(/did not send a weight within 10 s/)).toBeVisible({ timeout: 20_000 })
    await expect.poll(() => heard.map((m) => m.cmd)).toEqual(['read_weight', 'audio'])
    expect(heard[1]).toMatchObject({ cmd: 'audio', sound: 'failure' })
    expect(await page.locator('[name="dead_weight.qty"]').inputValue()).toBe('')
  } finally {
    await database.store.update(actor, FAC, 'sen_input_devices', mapping._id, { deviceid: mapping.deviceid, args: mapping.args })
    device.end(true)
    await revokeDeviceKeys(database, FAC, silent)
  }
})

test('RFID fills the plant tag from the simulated reader', async ({ page, createUser, database }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  const plant = await openPlant(page, database)
  const tag = page.locator('[name="tag"]')
  await expect(tag).toHaveValue(String(plant.tag))
  await page.getByRole('button', { name: 'RFID', exact: true }).first().click()
  await expect(page.getByText(/^Scanned 1A4\d{21}$/)).toBeVisible({ timeout: 15_000 })
  await expect(tag).toHaveValue(/^1A4\d{21}$/)
  expect(await tag.inputValue()).not.toBe(plant.tag)
})

test('Print label makes the simulated printer write the ZPL label to its folder', async ({ page, createUser, database }) => {
  const grower = await createUser({ modules: { [FAC]: ['cul'] } })
  await login(page, grower.email, grower.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  const plant = await openPlant(page, database)
  const mine = () => (fs.existsSync(E2E.printDir) ? fs.readdirSync(E2E.printDir).filter((f) => f.includes(`fac_plants-${plant._id}`) && f.endsWith('.zpl')) : [])
  const before = mine().length
  const print = page.getByRole('button', { name: 'Print label' })
  await print.click()
  await expect(page.getByText(/^Sent to /)).toBeVisible()
  await expect(print).toBeDisabled() // 20 s cool-down (SPEC §9)
  await expect.poll(() => mine().length, { timeout: 15_000 }).toBe(before + 1)
  const file = mine().sort().at(-1)!
  const zpl = fs.readFileSync(path.join(E2E.printDir, file), 'utf8')
  expect(zpl.startsWith('^XA')).toBe(true)
  expect(zpl).toContain(String(plant.tag))
  fs.rmSync(path.join(E2E.printDir, file))
})
