/**
 * The demo shows the whole flow at every stage (issue 24 item 6), made by the flow itself after the
 * demo records are in, in each distribution facility: a cart left open by the shipping clerk, and
 * orders that are a draft, confirmed, picking, shipped (invoice pending), shipped and part paid
 * (due), delivered and paid, and shipped long ago on net terms and still unpaid (overdue). Their
 * manifest and invoice links open the real PDFs the flow wrote.
 */
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import type { Actor, Doc } from '../../db/types'
import { recordPayment } from './payments.server'
import { addCartLine, measureOf, setCartClient, submitCart } from '../distribution/cart.server'
import { confirmOrder, deliverOrder, fulfilOrder, shipOrder } from '../distribution/orders.server'

const CLERK = 'u-dist'

export async function seedDemoFlow(database: Database, env: Env): Promise<void> {
  const orgs = (await database.store.find('auth', 'org', {}, 100)).filter((o) => o.kind === 'distribution').map((o) => o._id)
  for (const org of orgs) {
    // once per facility: seeding again (seed --force, a restart) never walks the flow a second time
    const key = `finance_demo_flow:${org}`
    if ((await database.db.query('SELECT 1 FROM canopy_meta WHERE key = $1', [key])).rows.length) continue
    await seedFacility(database, env, org)
    await database.db.query(`INSERT INTO canopy_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [key, { at: new Date().toISOString() }])
  }
}

async function seedFacility(database: Database, env: Env, org: string): Promise<void> {
  const actor: Actor = { uid: CLERK, requestId: 'seed:distribution' }
  const clients = (await database.store.find(org, 'set_clients', {}, 100)).filter((c) => c.IsUsed !== 'no' && c.license && c.client_type !== 'Testing Lab' && new Date(String(c.license_exp)).getTime() > Date.now())
  const packages = (await database.store.find(org, 'dis_inventory', {}, 1000)).filter((p) => measureOf(p.qty).unit === 'units' && measureOf(p.qty).qty >= 24).sort((a, b) => a._id.localeCompare(b._id))
  if (clients.length < 4 || packages.length < 10) return
  let k = 0
  const order = async (client: Doc, n: number): Promise<{ order: Doc; tags: string }> => {
    const uid = `${CLERK}-demo-${k}`
    await setCartClient(database, actor, org, uid, client._id)
    const used: Doc[] = []
    for (let i = 0; i < n; i++) {
      const p = packages[(k * 3 + i) % packages.length]
      used.push(p)
      await addCartLine(database, actor, org, uid, { source: 'package', ref: p._id, qty: String(4 + ((k + i) % 5) * 2), price: '', discount: i === 1 ? '5' : '' })
    }
    k++
    return { order: await submitCart(database, actor, org, uid, 'Demo order'), tags: used.map((p) => String(p.tag)).join('\n') }
  }
  const ship = async (client: Doc, n: number, daysAgo = 0) => {
    const { order: o, tags } = await order(client, n)
    await confirmOrder(database, actor, org, o._id)
    await fulfilOrder(database, actor, org, o._id, tags)
    return shipOrder(database, actor, org, o._id, { dataDir: env.DATA_DIR, now: new Date(Date.now() - daysAgo * 86_400_000) })
  }
  const pay = async (o: Doc, cents: number, method: string, reference = '') => recordPayment(database, actor, org, { invoice: String(o.invoice), amount: (cents / 100).toFixed(2), method, reference })

  await order(clients[0], 2) // a draft
  const confirmed = await order(clients[1], 2)
  await confirmOrder(database, actor, org, confirmed.order._id)
  const picking = await order(clients[2], 3)
  await confirmOrder(database, actor, org, picking.order._id)
  await fulfilOrder(database, actor, org, picking.order._id, picking.tags)
  await ship(clients[3], 2) // shipped, invoice pending
  const part = await ship(clients[0], 3, 20) // part paid: due
  await pay(part, Math.floor(Number(part.totalCents) / 2), 'Check', '20417')
  const paid = await ship(clients[1], 2, 40) // delivered and paid in two payments
  await deliverOrder(database, actor, org, paid._id)
  await pay(paid, Math.floor(Number(paid.totalCents) / 3), 'ACH', 'ACH-88121')
  await pay(paid, Number(paid.totalCents) - Math.floor(Number(paid.totalCents) / 3), 'Cash')
  await ship(clients[2], 2, 75) // shipped 75 days ago, unpaid: overdue
  // a cart the clerk left open (leave and come back)
  await setCartClient(database, actor, org, CLERK, clients[3]._id)
  await addCartLine(database, actor, org, CLERK, { source: 'package', ref: packages[packages.length - 1]._id, qty: '2.5', price: '', discount: '' })
}
