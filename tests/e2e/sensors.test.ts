/**
 * /DshSensors (issue 8 item 6): a gauge per reading coloured by the dictionary thresholds of
 * SPEC §9 (temp: low 60, med 80, warn 85, error 90; rh: 40, 65, 70, 80; co2: 400, 1200, 1500, 2000;
 * vpd: 0.8, 1.2, 1.5, 1.8), the level named beside it, server-rendered (no JavaScript needed); with
 * JavaScript a reading published by the device moves the gauge without a reload, and a device's
 * first reading of a code brings its gauge. The readings go in as a device sends them: over HTTP
 * (POST /dt/v1/{deviceID} with the device's key) and over MQTT.
 */
import mqtt from 'mqtt'
import { issueDeviceKey } from '../../app/bus/credentials.server'
import { E2E } from './env'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'
const actor = { uid: 'e2e-fixture' }
/** a code the device has not reported before: DLI 50 is above med (45), not above warn (55) */
const firstCode = { code: 'dli', value: 50, colour: 'yellow' }

test('the Sensors dashboard shows each reading as a gauge with the right colour and level', async ({ page, createUser, database, javaScriptEnabled }, info) => {
  const deviceID = `SEN-E2E-${info.project.name}`
  const dev = await database.store.insert(actor, FAC, 'sen_devices', { deviceID, deviceName: `E2E Test Room ${info.project.name}`, type: 'sensor', location: '' })
  const at = new Date(Date.now() - 60_000).toISOString()
  const readings: Array<[string, number]> = [['temp', 95], ['rh', 72], ['co2', 1300], ['vpd', 1.0], ['ppfd', 150]]
  try {
    const key = await issueDeviceKey(database, FAC, deviceID, 'e2e')
    const auth = `Basic ${Buffer.from(`${key.username}:${key.password}`).toString('base64')}`
    // the HTTP door for gateways without MQTT, with the device's own key
    const res = await fetch(`${E2E.baseURL}/dt/v1/${deviceID}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'reading', data: Object.fromEntries(readings), ts: at }),
    })
    expect(res.status).toBe(201)
    const grower = await createUser({ modules: { [FAC]: ['sensors'] } })
    await login(page, grower.email, grower.password)
    await page.getByRole('region', { name: 'Signed in' }).waitFor()
    await page.goto('/DshSensors')
    const card = page.locator(`section[data-device="${deviceID}"]`)
    await expect(card).toBeVisible()
    const gauge = (code: string) => card.locator(`li[data-code="${code}"]`)
    for (const [code, colour, level] of [
      ['temp', 'red', 'Critical'],
      ['rh', 'orange', 'Warning'],
      ['co2', 'yellow', 'Elevated'],
      ['vpd', 'green', 'Normal'],
      ['ppfd', 'blue', 'Low'],
    ]) {
      await expect(gauge(code)).toHaveAttribute('data-colour', colour)
      await expect(gauge(code).getByTestId('gauge-level')).toHaveText(level)
    }
    await expect(gauge('temp').getByRole('img', { name: /Air Temperature: 95\.0 °F, Critical/ })).toBeVisible()
    // the demo's simulated sensors report too (DEMO_DEVICES): their cards have gauges
    await expect(page.locator('section[data-device] li[data-code]').first()).toBeVisible()

    if (javaScriptEnabled) {
      // a reading from the device itself, over the bus: the gauge turns blue without a reload, and a
      // code it reports for the first time gets its gauge
      await expect(gauge(firstCode.code)).toHaveCount(0)
      const c = mqtt.connect(`mqtt://127.0.0.1:${E2E.mqttPort}`, { username: key.username, password: key.password, reconnectPeriod: 0 })
      try {
        await new Promise<void>((resolve, reject) => (c.once('connect', () => resolve()), c.once('error', reject)))
        await c.publishAsync(`${FAC}/bcast/${deviceID}`, JSON.stringify({ type: 'reading', data: { temp: 50, [firstCode.code]: firstCode.value }, ts: new Date().toISOString() }))
        await expect(gauge('temp')).toHaveAttribute('data-colour', 'blue', { timeout: 10_000 })
        await expect(gauge('temp').getByTestId('gauge-level')).toHaveText('Low')
        await expect(gauge(firstCode.code)).toHaveAttribute('data-colour', firstCode.colour)
      } finally {
        c.end(true)
      }
    }
  } finally {
    await database.store.remove(actor, FAC, 'sen_devices', dev._id)
    for (const t of ['sensor_readings', 'sensor_hourly', 'sensor_latest', 'device_keys']) await database.db.query(`DELETE FROM ${t} WHERE org = $1 AND device_id = $2`, [FAC, deviceID])
  }
})
