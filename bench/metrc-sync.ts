/**
 * Scenario "metrc" (issue 9): a full initial sync of a facility with 10,000 plants and 5,000
 * packages from the METRC emulator (its published GET limits on: 50/s and 10 in flight per
 * facility), through `syncTable` into the engine's Metrc tables. Prints the time, the requests made
 * and the minimum the paging allows (one request per page of 20 per endpoint, at least one each).
 * Targets: none (METRC's limit, not Canopy, sets the floor: 50 GET/s → ~15 s for ~750 pages).
 * Then pushing 1,000 plant waste records through the outbox (queued in one transaction, sent by
 * the worker in batches of 10): time and requests (the minimum is 100). `BENCH_METRC_PLANTS`,
 * `BENCH_METRC_PACKAGES`, `BENCH_METRC_PUSHES` change the sizes.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { startMetrcEmulator } from '../app/metrc/emulator'
import { GROW_LICENSE, DEMO_USER_KEY } from '../app/metrc/emulator/model'
import { saveLink } from '../app/metrc/sync/links.server'
import { syncTable } from '../app/metrc/sync/run.server'
import { SYNC_TABLES } from '../app/metrc/sync/tables'
import { enqueuePushes } from '../app/metrc/outbox/enqueue.server'
import { pushFacility } from '../app/metrc/outbox/worker.server'
import { loadEnv } from '../app/config/env.server'
import { ensurePlatform } from '../app/seed/index.server'
import { tableOf } from '../app/db/sql'
import type { BenchRow, Scenario, Stats } from './lib'

const NONE: Stats = { p50: NaN, p95: NaN, n: 0 }
const PLANTS = Number(process.env.BENCH_METRC_PLANTS ?? 10_000)
const PACKAGES = Number(process.env.BENCH_METRC_PACKAGES ?? 5_000)
const PUSHES = Number(process.env.BENCH_METRC_PUSHES ?? 1_000)

export const metrcSyncScenario: Scenario = {
  name: 'metrc',
  legend: [
    `metrc: full initial sync of ${PLANTS.toLocaleString('en-US')} plants and ${PACKAGES.toLocaleString('en-US')} packages from the METRC emulator (METRC's GET limits on); store = wall time of the sync, notes = requests vs the paging minimum.`,
    `metrc: pushing ${PUSHES.toLocaleString('en-US')} plant waste records through the outbox; store = wall time from queued to all confirmed, notes = requests vs the minimum (10 objects per request).`,
  ],
  async run(ctx) {
    const rows: BenchRow[] = []
    for (const engine of ctx.engines) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canopy-bench-metrc-'))
      const emu = await startMetrcEmulator({ dataDir: dir, seed: { plants: PLANTS, packages: PACKAGES } })
      const org = `bench-metrc-${Date.now().toString(36)}`
      const { database } = engine
      const secret = 'bench-secret-bench-secret-bench-secret'
      try {
        await ensurePlatform(database, loadEnv({ DATA_DIR: dir, LOG_LEVEL: 'warn' })) // the Metrc tables, on a bench schema no other scenario set up
        await saveLink(database, secret, { uid: 'bench' }, org, { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
        const o = { database, secret, endpoint: { vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true }, logger: pino({ level: 'silent' }) }
        const notes: string[] = []
        // how many rows each list the sync reads holds (METRC's TotalRecords), asked before the timing
        const auth = 'Basic ' + Buffer.from(`${emu.vendorKey}:${DEMO_USER_KEY}`).toString('base64')
        const total = async (p: string) => ((await (await fetch(`${emu.url}${p}?licenseNumber=${GROW_LICENSE}&pageSize=1`, { headers: { Authorization: auth } })).json()) as { TotalRecords: number }).TotalRecords
        const counts = async (collection: string) => Object.fromEntries(await Promise.all(SYNC_TABLES.get(collection)!.paths.map(async (p) => [p, await total(p)] as const)))
        for (const [collection, paths] of [
          ['metrc_plants', await counts('metrc_plants')],
          ['metrc_packages', await counts('metrc_packages')],
        ] as const) {
          emu.clearRequests()
          ctx.log(`metrc: syncing ${collection} on ${engine.name}…`)
          const t0 = performance.now()
          const r = await syncTable(o, org, collection)
          const ms = performance.now() - t0
          const gets = emu.requests.filter((x) => x.method === 'GET' && x.status === 200 && x.path !== '/facilities/v2').length
          const refused = emu.requests.filter((x) => x.status === 429).length
          // every list the table reads (issue 21: on hold and mother plants too), one page of 20 at least each
          const minimum = Object.values(paths as Record<string, number>).reduce((n, c) => n + Math.max(1, Math.ceil(c / 20)), 0)
          notes.push(`${collection}: ${r.status}${r.error ? ` (${r.error})` : ''}, ${r.seen.toLocaleString('en-US')} rows, ${(ms / 1000).toFixed(1)} s, ${gets} list requests for a paging minimum of ${minimum} (+1 facilities check, ${refused} answered 429 and retried); ${Math.round(r.seen / (ms / 1000))} rows/s`)
          rows.push({ scenario: `metrc: initial sync ${collection}`, engine: engine.name, docs: r.seen, store: { p50: ms, p95: ms, n: 1 }, hand: NONE, target: '-', met: null, notes: notes.slice(-1) })
        }
        // pushing plant waste: queued with their changes (here: all in one transaction), sent by the worker
        const waste = Array.from({ length: PUSHES }, (_, i) => ({
          endpoint: 'POST /plants/v2/waste',
          payload: { WasteMethodName: 'Grinder', MixedMaterial: 'Soil', WasteWeight: 50 + (i % 400), UnitOfMeasureName: 'Grams', ReasonName: 'Trimming/Pruning', Note: `bench waste ${i}`, WasteDate: new Date().toISOString().slice(0, 10), PlantLabels: [] },
          label: `bench waste ${i}`,
          noteField: 'Note',
        }))
        await database.db.transaction((tx) => enqueuePushes(tx, org, { uid: 'bench' }, waste))
        emu.clearRequests()
        ctx.log(`metrc: pushing ${PUSHES} plant waste records on ${engine.name}…`)
        const t0 = performance.now()
        let requests = 0
        for (let pass = 0; pass < 20; pass++) {
          const r = await pushFacility({ ...o, max: PUSHES }, org)
          requests += r.requests
          const left = await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM metrc_outbox WHERE org = $1 AND status IN ('pending', 'sent')`, [org])
          if (!left.rows[0].n) break
        }
        const ms = performance.now() - t0
        const confirmed = (await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM metrc_outbox WHERE org = $1 AND status = 'confirmed'`, [org])).rows[0].n
        const writes = emu.requests.filter((x) => x.method === 'POST').length
        const note = `${confirmed.toLocaleString('en-US')} of ${PUSHES.toLocaleString('en-US')} confirmed in ${(ms / 1000).toFixed(1)} s, ${writes} write requests for a minimum of ${Math.ceil(PUSHES / 10)} (${requests} requests in all); ${Math.round(confirmed / (ms / 1000))} records/s`
        rows.push({ scenario: 'metrc: push plant waste', engine: engine.name, docs: PUSHES, store: { p50: ms, p95: ms, n: 1 }, hand: NONE, target: '-', met: null, notes: [note] })
      } finally {
        await database.db.query('DELETE FROM metrc_outbox WHERE org = $1', [org]).catch(() => {})
        for (const c of ['metrc_plants', 'metrc_packages']) await database.db.query(`DELETE FROM ${tableOf(c)} WHERE org = $1`, [org]).catch(() => {})
        await database.db.query('DELETE FROM metrc_sync WHERE org = $1', [org]).catch(() => {})
        await database.db.query('DELETE FROM metrc_links WHERE org = $1', [org]).catch(() => {})
        await emu.close()
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }
    return rows
  },
}
