/**
 * The data set of scenario "dash" (issue 25): one facility (`bench-dash`) with N plants in the app's
 * own tables (c_fac_plants, …, as registered by ensurePlatform, with their indexes), and what the
 * four dashboards read beside them in proportion: waste (N/20), harvests (N/100) and their packages
 * (N/20), plantings (N/20), tasks (N/100), METRC outbox items (N/100), rooms, strains, licences.
 * Dates are spread over the last 200 days (tasks ±30 days) so every figure has rows. Set-based
 * (generate_series), deterministic (hashint4extended), kept between runs unless its size changes.
 */
import type { Database } from '../app/db/index.server'

export const DASH_ORG = 'bench-dash'
const VERSION = 'dash-1'

const h = (k: number, m: number) => `(((hashint4extended(g, ${k}) % ${m}) + ${m}) % ${m})`
const iso = (e: string) => `to_char((${e}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
const ago = (k: number, days: number) => `(now() - make_interval(mins => ${h(k, days * 24 * 60)}::int))`

const PHASES = `(ARRAY['Clone','Vegetative','Vegetative','Flowering','Flowering','Flowering','Mother','Harvested','Harvested','Destroyed'])`

/** Each statement inserts one collection's rows for the bench facility; $1 = the org, $2 = N. */
const INSERTS: Array<[string, string]> = [
  ['set_rooms', `SELECT $1, 'r' || g, jsonb_build_object('name', 'Bench Room ' || g), now(), now() FROM generate_series(0, 7) g`],
  ['set_strains', `SELECT $1, 's' || g, jsonb_build_object('name', 'Bench Strain ' || g, 'flower_weeks', 8 + g % 4), now(), now() FROM generate_series(0, 11) g`],
  [
    'fac_plants',
    `SELECT $1, 'p' || g, jsonb_build_object('tag', '1A4BENCHDASH' || lpad(g::text, 12, '0'), 'phase', ${PHASES}[1 + ${h(1, 10)}], 'room', 'r' || ${h(2, 8)},
        'strain', 's' || ${h(3, 12)}, 'planted', ${iso('pl')}, 'phaseDate', ${iso(`least(now(), pl + make_interval(mins => ${h(5, 60 * 24 * 60)}::int))`)}, 'alive', 'yes',
        'IsUsed', CASE WHEN ${h(6, 20)} = 0 THEN 'no' ELSE 'yes' END), now(), now()
       FROM generate_series(1, $2::int) g CROSS JOIN LATERAL (SELECT ${ago(4, 200)} AS pl) x`,
  ],
  [
    'fac_waste',
    `SELECT $1, 'w' || g, jsonb_build_object('wasteDate', ${iso(ago(7, 200))}, 'weight', jsonb_build_object('qty', 10 + ${h(8, 5000)}, 'unit', 'g'),
        'wasteType', (ARRAY['Plant Material','Trim','Stems','Root Ball'])[1 + ${h(9, 4)}], 'reported', CASE WHEN ${h(10, 10)} = 0 THEN 'no' ELSE 'yes' END), now(), now()
       FROM generate_series(1, $2::int / 20) g`,
  ],
  [
    'fac_harvests',
    `SELECT $1, 'h' || g, jsonb_build_object('name', 'BH-' || g, 'harvested', ${iso(ago(11, 200))}, 'strain', 's' || ${h(12, 12)}, 'room', 'r' || ${h(13, 8)},
        'wetWeight', jsonb_build_object('qty', 1000 + ${h(14, 90000)}, 'unit', 'g'), 'dryWeight', CASE WHEN ${h(15, 4)} = 0 THEN NULL ELSE jsonb_build_object('qty', 100 + ${h(16, 9000)}, 'unit', 'g') END,
        'plants', 5 + ${h(17, 95)}, 'status', (ARRAY['Drying','Curing','Finished'])[1 + ${h(18, 3)}]), now(), now()
       FROM generate_series(1, $2::int / 100) g`,
  ],
  ['fac_inventory', `SELECT $1, 'i' || g, jsonb_build_object('tag', '1A4BENCHPKG' || lpad(g::text, 13, '0'), 'harvest', 'h' || (1 + ${h(19, 1000000)} % greatest(1, $2::int / 100))), now(), now() FROM generate_series(1, $2::int / 20) g`],
  ['fac_plantings', `SELECT $1, 'b' || g, jsonb_build_object('name', 'BP-' || g, 'planted', ${iso(ago(20, 200))}, 'count', 1 + ${h(21, 40)}), now(), now() FROM generate_series(1, $2::int / 20) g`],
  [
    'sch_tasks',
    `SELECT $1, 't' || g, jsonb_build_object('title', 'Bench task ' || g, 'room', 'r' || ${h(22, 8)}, 'status', (ARRAY['Scheduled','In Progress','Done','Scheduled'])[1 + ${h(23, 4)}],
        'start', ${iso('st')}, 'end', ${iso(`st + make_interval(hours => 1 + ${h(25, 48)}::int)`)}), now(), now()
       FROM generate_series(1, $2::int / 100) g CROSS JOIN LATERAL (SELECT now() + make_interval(mins => (${h(24, 60 * 24 * 60)} - 30 * 24 * 60)::int) AS st) x`,
  ],
  ['set_mylic', `SELECT $1, 'l' || g, jsonb_build_object('name', 'Bench licence ' || g, 'license_number', 'BENCH-' || g, 'expiry', ${iso(`now() + make_interval(days => g * 20)`)}), now(), now() FROM generate_series(1, 8) g`],
]

const OUTBOX = `INSERT INTO metrc_outbox (org, id, endpoint, payload, marker, label, status, created_at, created_by, updated_by)
  SELECT $1, 'ob' || g, 'PUT /plants/v2/location', '{}'::jsonb, 'm' || g, 'Bench push ' || g, (ARRAY['confirmed','confirmed','confirmed','pending','failed','held'])[1 + ${h(26, 6)}],
         ${ago(27, 20)}, 'bench', 'bench'
    FROM generate_series(1, $2::int / 100) g`

const TABLES = [...INSERTS.map(([c]) => `c_${c}`)]

/** Loads the facility's data unless the same size is there already; returns how many plants it holds. */
export async function prepareDashData(database: Database, plants: number, opts: { reload: boolean; log: (m: string) => void; label: string }): Promise<number> {
  const { db } = database
  const log = (m: string) => opts.log(`${opts.label}: ${m}`)
  await db.query('CREATE TABLE IF NOT EXISTS bench_meta (k text PRIMARY KEY, v jsonb NOT NULL)')
  const prev = (await db.query<{ v: { version: string; plants: number } }>(`SELECT v FROM bench_meta WHERE k = 'dash'`)).rows[0]?.v
  if (!opts.reload && prev?.version === VERSION && prev.plants === plants) {
    log(`dashboards: reusing ${plants.toLocaleString('en-US')} plants in ${DASH_ORG}`)
    return plants
  }
  const t = Date.now()
  log(`dashboards: loading ${plants.toLocaleString('en-US')} plants and the rest into ${DASH_ORG}`)
  for (const table of TABLES) await db.query(`DELETE FROM ${table} WHERE org = $1`, [DASH_ORG])
  await db.query('DELETE FROM metrc_outbox WHERE org = $1', [DASH_ORG])
  for (const [c, select] of INSERTS) await db.query(`INSERT INTO c_${c} (org, id, doc, cts, ts) ${select}`, select.includes('$2') ? [DASH_ORG, plants] : [DASH_ORG])
  await db.query(OUTBOX, [DASH_ORG, plants])
  for (const table of [...TABLES, 'metrc_outbox']) await db.query(`ANALYZE ${table}`)
  await db.query(`INSERT INTO bench_meta (k, v) VALUES ('dash', $1) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v`, [JSON.stringify({ version: VERSION, plants })])
  log(`dashboards: loaded in ${((Date.now() - t) / 1000).toFixed(1)} s`)
  return plants
}
