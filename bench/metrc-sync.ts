/**
 * Scenario "metrc" (issue 9): a full initial sync of a facility with 10,000 plants and 5,000
 * packages from the METRC emulator (its published GET limits on: 50/s and 10 in flight per
 * facility), through `syncTable` into the engine's Metrc tables. Prints the time, the requests made
 * and the minimum the paging allows (one request per page of 20 per endpoint, at least one each).
 * Targets: none (METRC's limit, not Canopy, sets the floor: 50 GET/s → ~15 s for ~750 pages).
 * `BENCH_METRC_PLANTS`, `BENCH_METRC_PACKAGES` change the sizes.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { startMetrcEmulator } from '../app/metrc/emulator'
import { GROW_LICENSE, DEMO_USER_KEY } from '../app/metrc/emulator/model'
import { saveLink } from '../app/metrc/sync/links.server'
import { syncTable } from '../app/metrc/sync/run.server'
import { loadEnv } from '../app/config/env.server'
import { ensurePlatform } from '../app/seed/index.server'
import { tableOf } from '../app/db/sql'
import type { BenchRow, Scenario, Stats } from './lib'

const NONE: Stats = { p50: NaN, p95: NaN, n: 0 }
const PLANTS = Number(process.env.BENCH_METRC_PLANTS ?? 10_000)
const PACKAGES = Number(process.env.BENCH_METRC_PACKAGES ?? 5_000)

export const metrcSyncScenario: Scenario = {
  name: 'metrc',
  legend: [`metrc: full initial sync of ${PLANTS.toLocaleString('en-US')} plants and ${PACKAGES.toLocaleString('en-US')} packages from the METRC emulator (METRC's GET limits on); store = wall time of the sync, notes = requests vs the paging minimum.`],
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
        const f = emu.state.facilities[GROW_LICENSE]
        const notes: string[] = []
        for (const [collection, paths] of [
          ['metrc_plants', { '/plants/v2/vegetative': f.plants.filter((p) => p.State === 'Tracked' && p.GrowthPhase === 'Vegetative').length, '/plants/v2/flowering': f.plants.filter((p) => p.State === 'Tracked' && p.GrowthPhase === 'Flowering').length, '/plants/v2/inactive': f.plants.filter((p) => p.State !== 'Tracked').length }],
          ['metrc_packages', { '/packages/v2/active': f.packages.filter((p) => !p.IsFinished && !p.IsOnHold).length, '/packages/v2/onhold': f.packages.filter((p) => !p.IsFinished && p.IsOnHold).length, '/packages/v2/inactive': f.packages.filter((p) => p.IsFinished).length }],
        ] as const) {
          emu.clearRequests()
          ctx.log(`metrc: syncing ${collection} on ${engine.name}…`)
          const t0 = performance.now()
          const r = await syncTable(o, org, collection)
          const ms = performance.now() - t0
          const gets = emu.requests.filter((x) => x.method === 'GET' && x.status === 200 && x.path !== '/facilities/v2').length
          const refused = emu.requests.filter((x) => x.status === 429).length
          const minimum = Object.values(paths as Record<string, number>).reduce((n, c) => n + Math.max(1, Math.ceil(c / 20)), 0)
          notes.push(`${collection}: ${r.status}${r.error ? ` (${r.error})` : ''}, ${r.seen.toLocaleString('en-US')} rows, ${(ms / 1000).toFixed(1)} s, ${gets} list requests for a paging minimum of ${minimum} (+1 facilities check, ${refused} answered 429 and retried); ${Math.round(r.seen / (ms / 1000))} rows/s`)
          rows.push({ scenario: `metrc: initial sync ${collection}`, engine: engine.name, docs: r.seen, store: { p50: ms, p95: ms, n: 1 }, hand: NONE, target: '-', met: null, notes: notes.slice(-1) })
        }
      } finally {
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
