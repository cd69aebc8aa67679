/**
 * Issue 9 in the browser, against the METRC emulator that runs inside the e2e server: an admin
 * links the facility to METRC from a Metrc screen (a wrong license is refused with SPEC's line;
 * the right one is saved), runs Sync now, and the screen says when the table was last synced and
 * that it is current; the synced packages are in the table. An admin sees a banner on every page
 * while METRC refuses the facility's key (a user does not) until a new key is saved. With and
 * without JavaScript.
 */
import { GROW_LICENSE, DEMO_USER_KEY } from '../../app/metrc/emulator/model'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'

test('an admin links the facility to METRC and runs Sync now on /MetrcPackages', async ({ cleanup, page, createUser, database, javaScriptEnabled }) => {
  const admin = await createUser({ role: 'admin', modules: { [FAC]: ['metrc'] } })
  cleanup(async () => {
    await database.db.query('DELETE FROM metrc_links WHERE org = $1', [FAC])
    await database.db.query('DELETE FROM metrc_sync WHERE org = $1', [FAC])
    await database.db.query(`DELETE FROM c_metrc_packages WHERE org = $1 AND doc ? 'MetrcId'`, [FAC])
  })
  await login(page, admin.email, admin.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto('/MetrcPackages')
  const panel = page.getByTestId('metrc-panel')
  await expect(panel).toContainText('This facility is not linked to METRC yet.')
  const link = async (license: string) => {
    await panel.getByLabel('State', { exact: true }).selectOption('CA')
    await panel.getByLabel('State License').fill(license)
    await panel.getByLabel('METRC API Key').fill(DEMO_USER_KEY)
    await panel.getByRole('button', { name: 'Save and check' }).click()
  }
  await link('999-NOPE')
  await expect(page.getByTestId('metrc-panel').getByRole('alert')).toContainText('State License was incorrect.')
  expect((await database.db.query('SELECT 1 FROM metrc_links WHERE org = $1', [FAC])).rows).toHaveLength(0)
  await link(GROW_LICENSE)
  await expect(page.getByTestId('metrc-panel')).toContainText('This facility is now linked to METRC.')
  await expect(page.getByTestId('metrc-panel')).toContainText(`METRC license ${GROW_LICENSE} (CA)`)
  await expect(page.getByTestId('metrc-sync-state')).toHaveText('Not synced yet.')

  // with JavaScript, the panel shows the running sync's progress (server-sent events) until the answer comes
  const events: Array<{ collection: string; requests: number; rows: number; done: boolean }> = []
  const shown: string[] = []
  if (javaScriptEnabled) {
    await page.exposeFunction('e2eMetrcSync', (d: (typeof events)[number]) => void events.push(d))
    await page.exposeFunction('e2eProgressShown', (text: string) => void shown.push(text))
    await page.evaluate(() => {
      const w = window as unknown as { e2eMetrcSync: (d: unknown) => void; e2eProgressShown: (t: string) => void }
      window.addEventListener('canopy:metrc-sync', (e) => w.e2eMetrcSync((e as CustomEvent).detail))
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="metrc-sync-progress"]')
        if (el?.textContent) w.e2eProgressShown(el.textContent)
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
  }
  await page.getByRole('button', { name: 'Sync now' }).click()
  const state = page.getByTestId('metrc-sync-state')
  await expect(state).toHaveAttribute('data-current', 'yes')
  await expect(state).toContainText(/Last synced \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC · current · \d+ records, \d+ changed/)
  if (javaScriptEnabled) {
    expect(shown.some((x) => /^Syncing with METRC… \d+ records read, \d+ requests$/.test(x))).toBe(true)
    const mine = events.filter((e) => e.collection === 'metrc_packages')
    expect(mine.length).toBeGreaterThan(0)
    expect(mine.every((e) => e.requests >= 1)).toBe(true)
  }
  const synced = await database.db.query<{ label: string }>(`SELECT doc->>'Label' AS label FROM c_metrc_packages WHERE org = $1 AND doc ? 'MetrcId' ORDER BY id LIMIT 1`, [FAC])
  expect(synced.rows[0].label).toMatch(/^1A4/)
  await page.goto(`/MetrcPackages?col=Label&q=${encodeURIComponent(synced.rows[0].label)}`)
  await expect(page.locator('tbody')).toContainText(synced.rows[0].label)
})

test('admins see a banner on every page while METRC refuses the facility’s key; others do not; a new key ends it', async ({ cleanup, page, createUser, database }) => {
  const admin = await createUser({ role: 'admin', modules: { [FAC]: ['metrc', 'cul'] } })
  const worker = await createUser({ role: 'user', modules: { [FAC]: ['metrc', 'cul'] } })
  // the state a sync leaves when METRC starts refusing the key (tests/integration/metrc-sync-faults.test.ts)
  await database.db.query(
    `INSERT INTO metrc_links (org, state, license, key_sealed, status, checked_at, failing_since, last_error, updated_by)
     VALUES ($1, 'CA', $2, 'sealed:v1:expired', 'failing', now(), '2026-11-20T17:05:00Z', 'Authorization has been denied for this request.', 'e2e')`,
    [FAC, GROW_LICENSE],
  )
  cleanup(async () => {
    await database.db.query('DELETE FROM metrc_links WHERE org = $1', [FAC])
    await database.db.query('DELETE FROM metrc_sync WHERE org = $1', [FAC])
  })
  await login(page, worker.email, worker.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto('/MetrcPlants')
  await expect(page.getByTestId('metrc-panel')).toContainText('METRC stopped accepting this facility’s API key')
  await expect(page.getByTestId('metrc-key-banner')).toHaveCount(0) // not an admin: no banner
  await page.context().clearCookies()

  await login(page, admin.email, admin.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  const banner = page.getByTestId('metrc-key-banner')
  await expect(banner).toContainText('METRC stopped accepting this facility’s API key since 11/20/2026 09:05 AM (America/Los_Angeles).')
  await expect(banner).toContainText('METRC said: Authorization has been denied for this request.')
  await page.goto('/CulMoms')
  await expect(page.getByRole('heading', { name: 'Mothers' })).toBeVisible()
  await expect(banner).toBeVisible() // every page of the facility
  await banner.getByRole('link', { name: 'Enter a new METRC key' }).click()
  await expect(page).toHaveURL(/\/MetrcLicense#metrc-link$/)
  const panel = page.getByTestId('metrc-panel')
  await panel.getByLabel('METRC API Key').fill(DEMO_USER_KEY)
  await panel.getByRole('button', { name: 'Save and check' }).click()
  await expect(page.getByTestId('metrc-panel')).toContainText('This facility is now linked to METRC.')
  await expect(page.getByTestId('metrc-key-banner')).toHaveCount(0)
  expect((await database.db.query<{ status: string }>('SELECT status FROM metrc_links WHERE org = $1', [FAC])).rows[0].status).toBe('ok')
  await page.goto('/CulMoms')
  await expect(page.getByRole('heading', { name: 'Mothers' })).toBeVisible()
  await expect(page.getByTestId('metrc-key-banner')).toHaveCount(0)
})
