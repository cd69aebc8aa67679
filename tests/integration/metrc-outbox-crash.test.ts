/**
 * Issue 9's crash fault: the Canopy process is killed (SIGKILL) in the middle of a push; started
 * again, it sends every outbox item, and METRC (the emulator, which takes the write in flight after
 * its sender died) holds each item exactly once.
 */
import { openDatabase } from '#app/db/index.server'
import { GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { DEMO_USER_KEY } from '#app/metrc/emulator/model'
import { enqueuePushes } from '#app/metrc/outbox/enqueue.server'
import { saveLink } from '#app/metrc/sync/links.server'
import { createPgSchema, freshOptions, tmpDir, TEST_DB } from '#tests/helpers/db'
import { tsx } from '#tests/helpers/process'

const SECRET = 'outbox-crash-test-secret-0123456789abcdef'
const N = 40
let emu: RunningEmulator

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 10, packages: 5 } })
})
afterAll(async () => {
  await emu?.close()
})

describe(`a crash mid-push on ${TEST_DB}`, () => {
  it('sends each item exactly once as METRC sees it, after kill -9 and a restart', async () => {
    const { opts, childEnv, drop } = freshOptions()
    await createPgSchema(opts.pgSchema)
    const env = { ...childEnv, SESSION_SECRET: SECRET, METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
    try {
      const db = await openDatabase(opts)
      await saveLink(db, SECRET, { uid: 'u-admin' }, 'greenleaf', { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
      const waste = Array.from({ length: N }, (_, i) => ({
        endpoint: 'POST /plants/v2/waste',
        payload: { WasteMethodName: 'Grinder', MixedMaterial: 'Soil', WasteWeight: 10 + i, UnitOfMeasureName: 'Grams', ReasonName: 'Trimming/Pruning', Note: `crash ${i}`, WasteDate: '2026-11-24', PlantLabels: [] },
        label: `waste ${i}`,
        noteField: 'Note',
      }))
      const queued = await db.db.transaction((tx) => enqueuePushes(tx, 'greenleaf', { uid: 'u-admin' }, waste))
      expect(queued).toHaveLength(N)
      await db.close()

      // every write waits 400 ms in METRC before it is taken: the kill lands while one is in flight
      emu.faults.slowMs = 400
      const first = tsx('tests/fixtures/pusher.ts', env)
      await first.waitFor(/^ready$/m)
      const deadline = Date.now() + 60_000
      while (emu.requests.filter((r) => r.method === 'POST').length < 2) {
        if (Date.now() > deadline || first.proc.exitCode !== null) throw new Error(`no push in flight:\n${first.out().slice(-2000)}`)
        await new Promise((r) => setTimeout(r, 10))
      }
      first.proc.kill('SIGKILL')
      expect((await first.exited).signal).toBe('SIGKILL')
      // the write in flight is still taken by METRC after its sender died
      await new Promise((r) => setTimeout(r, 600))
      emu.faults.slowMs = 0

      emu.clearRequests()
      const second = tsx('tests/fixtures/pusher.ts', env)
      await second.waitFor(/^done$/m, 120_000)
      await second.exited

      const taken = emu.state.facilities[GROW_LICENSE].plantWaste.filter((x) => String(x.Note).startsWith('crash '))
      expect(taken).toHaveLength(N)
      for (const q of queued) expect(taken.filter((x) => String(x.Note).includes(`[canopy:${q.id}]`))).toHaveLength(1)
      const check = await openDatabase(opts)
      try {
        const st = await check.db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM metrc_outbox WHERE org = 'greenleaf' GROUP BY status`)
        expect(st.rows).toEqual([{ status: 'confirmed', n: N }])
        // the in-flight batch was found in METRC, not sent again
        const found = await check.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM metrc_outbox WHERE message LIKE 'METRC had taken it%'`)
        // the lost batch was looked up with one list read (its pages), not one per item
        expect(emu.requests.filter((r) => r.method === 'GET' && r.path === '/plants/v2/waste').length).toBeLessThanOrEqual(3)
        expect(found.rows[0].n, `first run:\n${first.out()}\nsecond run:\n${second.out()}\n${JSON.stringify(emu.requests.map((r) => [r.method, r.path, r.status, r.rows]))}`).toBeGreaterThan(0)
      } finally {
        await check.close()
      }
    } finally {
      emu.faults.slowMs = 0
      await drop()
    }
  }, 180_000)
})
