/**
 * Issue 9 item 7 in the browser, against the METRC emulator inside the e2e server: an admin links
 * the facility and syncs the plants; two Canopy plants carry tags METRC has but another room; after
 * Sync now, /MetrcDrift lists both with Canopy's value, the last synced value and METRC's. A reader
 * of the Metrc module sees them without the buttons (and a post of theirs is refused); the admin
 * takes METRC's value for one (the Canopy record changes, audited) and keeps Canopy's for the other
 * (the move is queued in the METRC outbox); a further sync reopens neither. With and without
 * JavaScript (each project its own plants).
 */
import { linkToEmulator } from './metrc-link'
import { expect, login, test } from './fixtures'

const FAC = 'greenleaf'

test('a drift is resolved both ways on /MetrcDrift, and a sync does not reopen it', async ({ cleanup, page, browser, createUser, database }, info) => {
  test.setTimeout(120_000)
  const admin = await createUser({ role: 'admin', modules: { [FAC]: ['metrc', 'cul'] } })
  const reader = await createUser({ role: 'user', modules: { [FAC]: ['metrc'] } })
  const made: string[] = []
  const q = <T extends Record<string, unknown>>(sql: string, params: unknown[]) => database.db.query<T>(sql, params).then((r) => r.rows)
  const syncPlants = async () => {
    await page.goto('/MetrcPlants')
    await page.getByRole('button', { name: 'Sync now' }).click()
    await expect(page.getByTestId('metrc-sync-state')).toHaveAttribute('data-current', 'yes')
  }
  cleanup(async () => {
    if (made.length) await database.db.query('DELETE FROM c_fac_plants WHERE org = $1 AND id = ANY($2::text[])', [FAC, made])
    await database.db.query('DELETE FROM metrc_outbox WHERE org = $1 AND created_by = $2', [FAC, admin.uid])
    await database.db.query('DELETE FROM metrc_drift WHERE org = $1', [FAC])
    await database.db.query('DELETE FROM metrc_drift_base WHERE org = $1', [FAC])
    await database.db.query('DELETE FROM metrc_links WHERE org = $1', [FAC])
    await database.db.query('DELETE FROM metrc_sync WHERE org = $1', [FAC])
    await database.db.query(`DELETE FROM c_metrc_plants WHERE org = $1 AND doc ? 'MetrcId'`, [FAC])
  })
  await login(page, admin.email, admin.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await linkToEmulator(page, '/MetrcPlants')
  await syncPlants()

  // two of METRC's tracked plants (each project its own), in Canopy with another room
  const tracked = await q<{ label: string; location: string; strain: string }>(
    `SELECT doc->>'Label' AS label, doc->>'LocationName' AS location, doc->>'StrainName' AS strain FROM c_metrc_plants
      WHERE org = $1 AND doc ? 'MetrcId' AND doc->>'State' = 'Tracked' AND doc->>'LocationName' IN ('Flower Room 1', 'Flower Room 2') ORDER BY (doc->>'MetrcId')::int`,
    [FAC],
  )
  const [a, b] = tracked.slice(info.project.name === 'js' ? 0 : 2)
  const roomId = async (name: string) => (await q<{ id: string }>(`SELECT id FROM c_set_rooms WHERE org = $1 AND doc->>'name' = $2`, [FAC, name]))[0].id
  const mother = await roomId('Mother Room')
  for (const p of [a, b]) {
    const strain = (await q<{ id: string }>(`SELECT id FROM c_set_strains WHERE org = $1 AND coalesce(doc->>'metrc_name', doc->>'name') = $2 ORDER BY id LIMIT 1`, [FAC, p.strain]))[0].id
    const phase = (await q<{ phase: string }>(`SELECT doc->>'GrowthPhase' AS phase FROM c_metrc_plants WHERE org = $1 AND doc->>'Label' = $2`, [FAC, p.label]))[0].phase
    made.push((await database.store.insert({ uid: 'e2e-fixture' }, FAC, 'fac_plants', { tag: p.label, strain, room: mother, phase, alive: 'yes', mark_as_dead: 'no' }))._id)
  }
  await syncPlants()
  // the panel above /MetrcPlants says how much drift is open and leads to the screen
  await expect(page.getByTestId('metrc-drift-count')).toHaveText('2 open drift with METRC · Reconcile')
  await page.getByTestId('metrc-drift-count').getByRole('link', { name: 'Reconcile' }).click()
  await expect(page).toHaveURL(/\/MetrcDrift$/)
  await expect(page.getByRole('heading', { name: 'Drift Reconciliation', level: 1 })).toBeVisible()
  const open = page.getByTestId('drift-open')
  const row = (tag: string) => open.locator(`tr[data-tag="${tag}"]`)
  for (const p of [a, b]) {
    await expect(row(p.label)).toHaveCount(1)
    await expect(row(p.label).locator('[data-col="canopy"]')).toHaveText('Mother Room')
    await expect(row(p.label).locator('[data-col="synced"]')).toHaveText('(none)')
    await expect(row(p.label).locator('[data-col="metrc"]')).toHaveText(p.location)
  }

  // a reader sees the drift, no buttons, and may not decide
  const other = await browser.newContext()
  try {
    const rp = await other.newPage()
    await login(rp, reader.email, reader.password)
    await rp.getByRole('region', { name: 'Signed in' }).waitFor()
    await rp.goto('/MetrcDrift')
    await expect(rp.locator(`tr[data-tag="${a.label}"]`)).toHaveCount(1)
    await expect(rp.getByRole('button', { name: 'Take METRC’s' })).toHaveCount(0)
    await expect(rp.getByText('Only admins and compliance staff decide drift; you may read it.')).toBeVisible()
    const id = await row(a.label).getAttribute('data-drift')
    const refused = await rp.request.post('/MetrcDrift', { form: { id: id!, side: 'metrc' } })
    expect(refused.status()).toBe(403)
    expect((await q<{ status: string }>('SELECT status FROM metrc_drift WHERE org = $1 AND id = $2', [FAC, id]))[0].status).toBe('open')
  } finally {
    await other.close()
  }

  // Take METRC's: the Canopy record moves to METRC's room
  const idA = (await row(a.label).getAttribute('data-drift'))!
  await row(a.label).getByRole('button', { name: 'Take METRC’s' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'METRC’s value taken: the Canopy record was updated.' })).toBeVisible()
  await expect(row(a.label)).toHaveCount(0)
  await expect(page.getByTestId('drift-decided').locator(`tr[data-drift="${idA}"] [data-col="winner"]`)).toHaveText('METRC')
  const plantA = await database.store.get(FAC, 'fac_plants', made[0])
  expect(plantA!.room).toBe(await roomId(a.location))
  const histA = await database.store.history(FAC, 'fac_plants', made[0])
  expect(histA.at(-1)).toMatchObject({ action: 'update', uid: admin.uid })
  expect((await database.store.history(FAC, 'metrc_drift', idA))[0]).toMatchObject({ uid: admin.uid, after: { status: 'resolved', side: 'metrc' } })

  // Keep Canopy's: the move to Mother Room is queued for METRC
  const idB = (await row(b.label).getAttribute('data-drift'))!
  await row(b.label).getByRole('button', { name: 'Keep Canopy’s' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Canopy’s value kept: the change is queued for METRC.' })).toBeVisible()
  await expect(row(b.label)).toHaveCount(0)
  await expect(page.getByTestId('drift-decided').locator(`tr[data-drift="${idB}"] [data-col="winner"]`)).toHaveText('Canopy (queued for METRC)')
  const [drift] = await q<{ push_id: string; status: string; resolved_by: string }>('SELECT push_id, status, resolved_by FROM metrc_drift WHERE org = $1 AND id = $2', [FAC, idB])
  expect(drift).toMatchObject({ status: 'resolved', resolved_by: admin.uid })
  const [push] = await q<{ endpoint: string; payload: Record<string, unknown>; status: string; created_by: string }>('SELECT endpoint, payload, status, created_by FROM metrc_outbox WHERE org = $1 AND id = $2', [FAC, drift.push_id])
  expect(push).toMatchObject({ endpoint: 'PUT /plants/v2/location', payload: { Label: b.label, Location: 'Mother Room' }, created_by: admin.uid })
  // the outbox worker (every 500 ms here) sends it; METRC confirms it
  await expect.poll(async () => (await q<{ status: string }>('SELECT status FROM metrc_outbox WHERE org = $1 AND id = $2', [FAC, drift.push_id]))[0].status, { timeout: 20_000 }).toBe('confirmed')

  // another sync: METRC now has b in Mother Room too; neither drift comes back
  await syncPlants()
  await page.goto('/MetrcDrift')
  await expect(page.getByRole('heading', { name: 'Drift Reconciliation', level: 1 })).toBeVisible()
  await expect(page.locator(`[data-testid="drift-open"] tr[data-tag="${a.label}"], [data-testid="drift-open"] tr[data-tag="${b.label}"]`)).toHaveCount(0)
  expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM metrc_drift WHERE org = $1 AND tag = ANY($2::text[]) AND status = 'open'`, [FAC, [a.label, b.label]]))[0].n).toBe(0)
})
