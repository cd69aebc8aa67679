/**
 * Scenario "orders" (issue 24), PostgreSQL only: 100 carts submitted at once (each submit one
 * transaction: the cart locked, the order number taken, the order written, the cart removed) —
 * throughput and each submit's latency; then 100 fulfilments at once of orders racing over 10
 * packages (locked, conditional stock updates). Then the sales report's loader (`salesReport`, by
 * client, a year) over 100,000 shipped orders against hand-written SQL for the same sums
 * (`BENCH_ORDERS_REPORT` changes the size). Targets: none printed as met or not (a record).
 */
import { loadEnv } from '../app/config/env.server'
import type { Actor, Doc } from '../app/db/types'
import { ensurePlatform } from '../app/seed/index.server'
import { installServerAreas } from '../app/areas/index.server'
import { addCartLine, setCartClient, submitCart } from '../app/areas/distribution/cart.server'
import { confirmOrder, fulfilOrder } from '../app/areas/distribution/orders.server'
import { salesReport } from '../app/areas/finance/reports.server'
import { comparePair, stats, type BenchRow, type Scenario, type Stats } from './lib'

const NONE: Stats = { p50: NaN, p95: NaN, n: 0 }
const CONCURRENT = 100
const REPORT_ORDERS = Number(process.env.BENCH_ORDERS_REPORT ?? 100_000)

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; out: T | Error }> {
  const t0 = process.hrtime.bigint()
  const out = await fn().catch((e: Error) => e)
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, out }
}

export const ordersScenario: Scenario = {
  name: 'orders',
  legend: [
    `orders submit: ${CONCURRENT} carts (2 lines each) submitted at once; store = each submit's latency, notes = wall time and orders/s.`,
    `orders fulfil: ${CONCURRENT} confirmed orders fulfilled at once, 10 to a package; store = each fulfilment's latency, notes = orders/s and final stock (never below 0).`,
    `orders report: the sales report loader (by client, a year) over ${REPORT_ORDERS.toLocaleString('en-US')} shipped orders; hand = one hand-written GROUP BY for the same sums.`,
  ],
  async run(ctx) {
    installServerAreas()
    const rows: BenchRow[] = []
    for (const engine of ctx.engines.filter((e) => e.name === 'pg')) {
      const { database } = engine
      await ensurePlatform(database, loadEnv({ LOG_LEVEL: 'warn' }))
      const org = `bench-orders-${Date.now().toString(36)}`
      const actor: Actor = { uid: 'bench' }
      const client = await database.store.insert(actor, org, 'set_clients', { name: 'Bench Dispensary', client_type: 'Dispensary', license: '402R-00001', state: 'CO', city: 'Denver', terms: 'Net 30', tax_exempt: 'no' })
      await database.store.insert(actor, org, 'set_tax', { name: 'Excise', jurisdiction: 'CO', level: 'State', tax_type: 'Excise', rate: 15, basis: 'Average market rate' })
      const product = await database.store.insert(actor, org, 'dis_products', { name: 'Bench Flower 3.5g', wholesale: 18.5, active: 'yes' })
      const pkgs: Doc[] = []
      for (let i = 0; i < 10; i++) pkgs.push(await database.store.insert(actor, org, 'dis_inventory', { tag: `1A4BENCH${String(i).padStart(16, '0')}`, product: product._id, qty: { qty: 10_000, unit: 'units' } }))
      ctx.log(`orders: preparing ${CONCURRENT} carts…`)
      for (let i = 0; i < CONCURRENT; i++) {
        const uid = `bench-${i}`
        await setCartClient(database, { uid }, org, uid, client._id)
        await addCartLine(database, { uid }, org, uid, { source: 'package', ref: pkgs[i % 10]._id, qty: '3', price: '', discount: '' })
        await addCartLine(database, { uid }, org, uid, { source: 'product', ref: product._id, qty: '2.5', price: '17.25', discount: '5' })
      }
      const t0 = Date.now()
      const submits = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => timed(() => submitCart(database, { uid: `bench-${i}` }, org, `bench-${i}`))))
      const wall = Date.now() - t0
      const failed = submits.filter((s) => s.out instanceof Error).length
      rows.push({ scenario: 'orders submit ×100', engine: 'pg', docs: CONCURRENT, store: stats(submits.map((s) => s.ms)), hand: NONE, target: '-', met: null, notes: [`orders submit: ${CONCURRENT} at once in ${wall} ms = ${((CONCURRENT * 1000) / wall).toFixed(0)} orders/s; ${failed} failed`] })
      const orders = submits.map((s) => s.out).filter((o): o is Exclude<typeof o, Error> => !(o instanceof Error))
      for (const o of orders) await confirmOrder(database, actor, org, o._id)
      const t1 = Date.now()
      const fulfils = await Promise.all(orders.map((o, i) => timed(() => fulfilOrder(database, actor, org, o._id, String(pkgs[i % 10].tag)))))
      const wall2 = Date.now() - t1
      const left = await Promise.all(pkgs.map(async (p) => Number(((await database.store.get(org, 'dis_inventory', p._id))!.qty as { qty: number }).qty)))
      rows.push({ scenario: 'orders fulfil ×100', engine: 'pg', docs: CONCURRENT, store: stats(fulfils.map((s) => s.ms)), hand: NONE, target: '-', met: null, notes: [`orders fulfil: ${orders.length} at once in ${wall2} ms = ${((orders.length * 1000) / wall2).toFixed(0)} orders/s; ${fulfils.filter((f) => f.out instanceof Error).length} refused; stock left per package ${[...new Set(left)].join(', ')} (of 10,000 less 10 × 3)`] })

      // the report over REPORT_ORDERS shipped orders, written in one statement
      ctx.log(`orders: writing ${REPORT_ORDERS.toLocaleString('en-US')} shipped orders for the report…`)
      const rorg = `${org}-r`
      const clients = 50
      await database.db.query(
        `INSERT INTO c_set_clients (org, id, doc, cts, ts) SELECT $1, 'c' || g, jsonb_build_object('name', 'Client ' || g), now(), now() FROM generate_series(1, $2) g`,
        [rorg, clients],
      )
      await database.db.query(
        `INSERT INTO c_dis_orders (org, id, doc, cts, ts)
         SELECT $1, 'o' || g, jsonb_build_object('orderNo', 'SO-' || g, 'client', 'c' || (1 + g % $3), 'status', CASE WHEN g % 10 = 0 THEN 'Cancelled' WHEN g % 3 = 0 THEN 'Delivered' ELSE 'Shipped' END,
           'shippedAt', to_char(now() - (g % 365) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'subtotalCents', 1000 + (g * 7919) % 90000, 'taxCents', ((1000 + (g * 7919) % 90000) * 15 + 50) / 100,
           'items', jsonb_build_array(jsonb_build_object('product', 'p' || (g % 40), 'totalCents', 1000 + (g * 7919) % 90000))), now(), now()
         FROM generate_series(1, $2) g`,
        [rorg, REPORT_ORDERS, clients],
      )
      await database.db.query('ANALYZE c_dis_orders')
      const today = new Date().toISOString().slice(0, 10)
      const from = new Date(Date.now() - 366 * 86_400_000).toISOString().slice(0, 10)
      const period = { from, to: today, tz: 'America/Denver' }
      const hand = `SELECT doc->>'client' AS client, count(*) AS n, sum((doc->>'subtotalCents')::bigint) AS cents FROM c_dis_orders
        WHERE org = $1 AND doc->>'status' IN ('Shipped', 'Delivered') AND ((doc->>'shippedAt')::timestamptz AT TIME ZONE 'America/Denver')::date BETWEEN $2::date AND $3::date GROUP BY 1`
      const a = await salesReport(database, rorg, 'client', period)
      const b = await database.db.query<{ n: string; cents: string }>(hand, [rorg, from, today])
      const same = a.total.cents === b.rows.reduce((s, r) => s + Number(r.cents), 0) && a.total.count === b.rows.reduce((s, r) => s + Number(r.n), 0)
      const r = await comparePair(() => salesReport(database, rorg, 'client', period), () => database.db.query(hand, [rorg, from, today]), { iterations: Math.min(ctx.secondaryIterations, 20), warmup: 2, budgetSec: ctx.rowBudgetSec })
      rows.push({ scenario: 'orders report (by client)', engine: 'pg', docs: REPORT_ORDERS, store: r.a, hand: r.b, target: '<=1.3x', met: r.a.p50 <= r.b.p50 * 1.3, notes: [`orders report: ${a.rows.length} clients, ${a.total.count.toLocaleString('en-US')} orders, $${(a.total.cents / 100).toLocaleString('en-US')}; same sums as the hand-written SQL: ${same ? 'yes' : 'NO'}`] })
      await database.db.query('DELETE FROM c_dis_orders WHERE org = $1', [rorg])
      await database.db.query('DELETE FROM c_set_clients WHERE org = $1', [rorg])
    }
    return rows
  },
}
