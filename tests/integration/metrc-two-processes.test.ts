/**
 * One METRC runner per facility across processes (issue 30 item 4, decision 069): two real server
 * processes on one PostgreSQL schema, both with their METRC sync schedule and outbox worker running
 * against one METRC emulator that is slow to take writes. A queued push is POSTed to METRC exactly
 * once (the emulator's own request log), although the other worker looked at the facility while the
 * write was in flight; the facility's sync runs in one process at a time (the runs' start and end as
 * each process logged them never overlap, and the other process was seen skipping the facility).
 * PostgreSQL only: an embedded database serves one process.
 */
import { openDatabase, type Database } from '#app/db/index.server'
import { GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { DEMO_USER_KEY } from '#app/metrc/emulator/model'
import { enqueuePushes } from '#app/metrc/outbox/enqueue.server'
import { saveLink } from '#app/metrc/sync/links.server'
import { createPgSchema, freshOptions, TEST_DB, tmpDir } from '#tests/helpers/db'
import { startServer } from '#tests/helpers/process'

const SECRET = 'two-process-metrc-secret-0123456789abcdef'
const ORG = 'greenleaf'

interface Line { time: number; msg?: string; loop?: string; org?: string }
/** the loop's run events for the facility, from one process's JSON log */
function runEvents(out: string, loop: string) {
  const events: Array<{ time: number; kind: 'started' | 'ended' | 'skipped' }> = []
  for (const raw of out.split('\n')) {
    if (!raw.startsWith('{')) continue
    let l: Line
    try {
      l = JSON.parse(raw) as Line
    } catch {
      continue
    }
    if (l.loop !== loop || l.org !== ORG || !l.msg) continue
    const kind = l.msg.endsWith('run started') ? 'started' : l.msg.endsWith('run ended') ? 'ended' : l.msg.endsWith('skipped') ? 'skipped' : null
    if (kind) events.push({ time: l.time, kind })
  }
  return events
}

/** the most runs of one loop for the facility at the same moment, over both processes */
function mostAtOnce(outs: string[], loop: string) {
  const all = outs.flatMap((o) => runEvents(o, loop).filter((e) => e.kind !== 'skipped'))
  // an end logged in the same millisecond as another's start came first (the lock was released after it)
  all.sort((a, b) => a.time - b.time || (a.kind === 'ended' ? -1 : 1))
  let now = 0
  let most = 0
  for (const e of all) {
    now += e.kind === 'started' ? 1 : -1
    most = Math.max(most, now)
  }
  return { most, runs: all.filter((e) => e.kind === 'started').length }
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms: number): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe.runIf(TEST_DB === 'pg')('METRC sync and outbox with two server processes on one PostgreSQL', () => {
  const { opts, childEnv, drop } = freshOptions()
  const servers: Array<Awaited<ReturnType<typeof startServer>>> = []
  let emu: RunningEmulator
  let db: Database
  beforeAll(async () => {
    emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 10, packages: 5 } })
    await createPgSchema(opts.pgSchema)
    db = await openDatabase(opts)
    await saveLink(db, SECRET, { uid: 'u-admin' }, ORG, { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
  })
  afterAll(async () => {
    for (const s of servers) s.proc.kill('SIGTERM')
    await Promise.all(servers.map((s) => s.exited))
    await db?.close()
    await emu?.close()
    await drop()
  })

  it('sends a queued push once and syncs the facility in one process at a time', async () => {
    // every METRC answer a little slow (the sync takes seconds), every write slower still
    emu.faults.slowMs = 150
    const env = () => ({
      ...childEnv,
      DATA_DIR: tmpDir(),
      SESSION_SECRET: SECRET,
      METRC_VENDOR_KEY: emu.vendorKey,
      METRC_URL: emu.url,
      DEMO_DATA: '0',
      ADMIN_PASSWORD: 'Two-Process#Admin-9',
      LOG_LEVEL: 'debug',
      DB_POOL_MAX: '4',
      METRC_PUSH_EVERY_MS: '200',
      METRC_SYNC_DATA_MIN: '1',
      METRC_SYNC_CHECK_MS: '250',
    })
    const [a, b] = await Promise.all([startServer(env()), startServer(env())])
    servers.push(a, b)
    const outs = () => [a.out(), b.out()]

    // the sync: each process has run the facility at least once (the first whole sync takes seconds)
    await until('a sync run in each process', async () => outs().every((o) => runEvents(o, 'metrc-sync').some((e) => e.kind === 'ended')), 120_000)

    // one push queued while both workers look every 200 ms; METRC takes 3 s to take it
    emu.faults.slowWritesMs = 3000
    const [queued] = await db.db.transaction((tx) =>
      enqueuePushes(tx, ORG, { uid: 'u-admin' }, [{ endpoint: 'POST /plants/v2/waste', payload: { WasteMethodName: 'Grinder', MixedMaterial: 'Soil', WasteWeight: 12, UnitOfMeasureName: 'Grams', ReasonName: 'Trimming/Pruning', Note: 'two processes', WasteDate: '2026-11-24', PlantLabels: [] }, label: 'waste', noteField: 'Note' }]),
    )
    expect(queued).toBeTruthy()
    await until('the push confirmed', async () => (await db.db.query<{ status: string }>('SELECT status FROM metrc_outbox WHERE id = $1', [queued.id])).rows[0]?.status === 'confirmed', 60_000)
    // a second send would have left while the first was in flight: wait for every request METRC is still working on
    await until('METRC idle', async () => emu.requests.every((r) => r.ms !== undefined), 30_000)

    const posts = emu.requests.filter((r) => r.method === 'POST' && r.path === '/plants/v2/waste')
    expect(posts, JSON.stringify(emu.requests.filter((r) => r.method !== 'GET'))).toHaveLength(1)
    expect(emu.state.facilities[GROW_LICENSE].plantWaste.filter((x) => String(x.Note).includes(`[canopy:${queued.id}]`))).toHaveLength(1)
    // both workers were running: the one without the facility skipped it while the write was in flight
    const push = outs().map((o) => runEvents(o, 'metrc-push'))
    expect(push.flat().some((e) => e.kind === 'skipped')).toBe(true)
    expect(push.every((ev) => ev.some((e) => e.kind === 'started' || e.kind === 'skipped'))).toBe(true)
    expect(mostAtOnce(outs(), 'metrc-push').most).toBe(1)

    // the sync ran, never in both processes at once: the other skipped the facility meanwhile
    expect(outs().flatMap((o) => runEvents(o, 'metrc-sync')).some((e) => e.kind === 'skipped')).toBe(true)
    const sync = mostAtOnce(outs(), 'metrc-sync')
    expect(sync.runs).toBeGreaterThan(0)
    expect(sync.most, outs().map((o) => runEvents(o, 'metrc-sync').map((e) => `${e.time} ${e.kind}`).join('\n')).join('\n---\n')).toBe(1)
    expect(a.out() + b.out()).not.toMatch(/METRC push pass failed|scheduled METRC sync failed/)
  }, 300_000)
})
