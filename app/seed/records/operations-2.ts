/**
 * Demo records of the "operations" group, part 2: helpers, distribution tables (dis_*) and the
 * tables every working facility gets (tasks, sensors, testing, finance). Part 1 (operations.ts)
 * holds the cultivation tables and the entry point.
 */
import { fileRef, type SeedCtx, type SeedDoc, type SeedRecords } from '../kit'
import { LABS, ORDER_STATUS, PAY_METHODS, PAY_TERMS, PRIORITIES, SAMPLE_TYPES, STAFF } from '../schemas/operations'

// ------------------------------------------------------------------ helpers
export const DAY = 86_400_000
export const N_STRAINS = 12
/** set_clients that buy from us: not the testing lab (12) nor the closed store (17). set_contacts i < 20 work at set_clients i. */
export const BUYERS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 18, 19]
export const N_PRODTYPES = 10

export type Measure = { qty: number; unit: string }
export const m = (qty: number, unit: string): Measure => ({ qty: Number(qty.toFixed(unit === 'units' || unit === 'packages' ? 0 : 2)), unit })
export const r2 = (n: number) => Math.round(n * 100) / 100
export const pad = (n: number, w: number) => String(n).padStart(w, '0')

/** A time `daysAgo` days before ctx.now (negative = in the future) during US working hours (UTC). */
export function at(ctx: SeedCtx, daysAgo: number, hour?: number): string {
  const d = new Date(ctx.now.getTime() - Math.round(daysAgo * 24) * 3_600_000)
  d.setUTCHours(hour ?? ctx.rng.int(14, 23), ctx.rng.int(0, 11) * 5, 0, 0)
  if (daysAgo >= 0 && d.getTime() > ctx.now.getTime()) return new Date(ctx.now.getTime() - 3_600_000).toISOString()
  return d.toISOString()
}
export const plusDays = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY).toISOString()
export const ageDays = (ctx: SeedCtx, iso: string) => (ctx.now.getTime() - new Date(iso).getTime()) / DAY
export const yymmdd = (iso: string) => iso.slice(2, 10).replace(/-/g, '')

/** Locked row (ed/delete 'no'): used for records already filed with the state or paid out. */
export const locked = { ed: 'no', delete: 'no' } as const

export const fileUrl = (ctx: SeedCtx, folder: string, name: string) => fileRef(ctx.facility.org, folder, name)

/** Inventory package tags, shared with finance and testing tables of the same facility. */
export const facInvTag = (ctx: SeedCtx, i: number) => ctx.tag('package', 200_001 + i)
export const disInvTag = (ctx: SeedCtx, i: number) => ctx.tag('package', 400_001 + i)

/** What the shared tables need to know about the facility's own inventory. */
export interface InventoryInfo {
  docs: SeedDoc[]
  /** product _id -> product name */
  productNames: Map<string, string>
  /** product _id -> category */
  categories: Map<string, string>
  /** product _id -> strain _id ('' when none) */
  strains: Map<string, string>
}

/** set_prodtypes i (business group): Flower, Pre-Roll, Shake/Trim, Concentrate, Vape Cartridge, Edible, Tincture, Topical, Seeds, Clones */
const CATEGORY_OF_PRODTYPE = ['Buds', 'Pre-Roll', 'Shake/Trim', 'Concentrate', 'Vape Cartridge', 'Edible', 'Tincture', 'Topical', 'Seeds', 'Clones']
/** Who supplies each brand (set_clients: 9 distributor, 10 processor, 11 cultivator, 18 microbusiness). */
const SUPPLIER_OF: Record<string, number> = {
  'Golden Coast Farms': 11, 'Highland Select': 18, 'Redwood Rolls': 11, 'Sierra Extracts': 10, 'Cloud Nine Vapes': 10, 'Mellow Bites': 9, 'Pacific Tonics': 9,
}
/** Distribution rooms (set_rooms i): 0 receiving, 1 quarantine, 2 main vault, 3 packaging, 5 cold storage, 6 order staging, 7 shipping dock, 8 returns. */
const SAMPLE_OF: Record<string, string> = {
  Buds: 'Flower', Smalls: 'Flower', 'Shake/Trim': 'Flower', 'Pre-Roll': 'Pre-Roll', Concentrate: 'Concentrate',
  'Vape Cartridge': 'Vape Cartridge', Edible: 'Edible', Tincture: 'Tincture', Topical: 'Topical',
}

/** The distribution facility's inventory as the shared tables see it. */
export function distributionInventoryInfo(recs: SeedRecords): InventoryInfo {
  const products = recs.dis_products ?? []
  return {
    docs: recs.dis_inventory ?? [],
    productNames: new Map(products.map((p) => [p._id, p.name as string])),
    categories: new Map(products.map((p, i) => [p._id, CATEGORY_OF_PRODTYPE[CATALOG[i][2]] ?? 'Buds'])),
    strains: new Map(products.map((p) => [p._id, p.strain as string])),
  }
}

// ------------------------------------------------------------------ distribution
type CatalogRow = [brand: string, name: string, prodtype: number, size: Measure, caseQty: number, wholesale: number, msrp: number, strain: number | null, desc: string]
const CATALOG: CatalogRow[] = [
  ['Golden Coast Farms', 'Golden Coast Eighth 3.5g', 0, m(3.5, 'g'), 32, 21, 45, 0, 'Indoor, hand-trimmed top colas in a nitrogen-flushed glass jar.'],
  ['Golden Coast Farms', 'Golden Coast Quarter 7g', 0, m(7, 'g'), 16, 38, 80, 1, 'Indoor flower, quarter-ounce jar, cured 21 days.'],
  ['Golden Coast Farms', 'Golden Coast Half Ounce 14g', 0, m(14, 'g'), 12, 70, 140, 2, 'Half-ounce mylar of mixed-size indoor buds.'],
  ['Golden Coast Farms', 'Golden Coast Smalls 14g', 0, m(14, 'g'), 12, 45, 90, 3, 'Popcorn buds from the lower canopy, same genetics, lower price.'],
  ['Highland Select', 'Highland Select Eighth 3.5g', 0, m(3.5, 'g'), 32, 18, 38, 4, 'Greenhouse flower, machine trimmed and hand finished.'],
  ['Highland Select', 'Highland Select Ounce 28g', 0, m(28, 'g'), 8, 95, 180, 5, 'Value ounce of greenhouse flower.'],
  ['Highland Select', 'Highland Shake 1 oz', 2, m(1, 'oz'), 8, 35, 70, 6, 'Shake and trim blend for home rolling.'],
  ['Redwood Rolls', 'Redwood Pre-Roll 1g', 1, m(1, 'units'), 100, 4.5, 10, 7, 'Single 1 g cone of ground indoor flower.'],
  ['Redwood Rolls', 'Redwood Pre-Roll 5-Pack 2.5g', 1, m(5, 'units'), 40, 14, 30, 8, 'Five 0.5 g dogwalkers in a child-resistant tin.'],
  ['Redwood Rolls', 'Redwood Infused Pre-Roll 1g', 1, m(1, 'units'), 50, 8, 18, 9, 'Flower infused with live resin and rolled in kief.'],
  ['Sierra Extracts', 'Sierra Live Resin 1g', 3, m(1, 'g'), 50, 22, 50, 10, 'Fresh-frozen live resin sauce, single-source.'],
  ['Sierra Extracts', 'Sierra Live Rosin 1g', 3, m(1, 'g'), 50, 32, 70, 11, 'Solventless cold-cure rosin, tier 1 hash.'],
  ['Sierra Extracts', 'Sierra Shatter 1g', 3, m(1, 'g'), 50, 12, 28, 0, 'Glass-stable BHO shatter.'],
  ['Sierra Extracts', 'Sierra Badder 1g', 3, m(1, 'g'), 50, 15, 35, 1, 'Whipped BHO badder, terpene rich.'],
  ['Cloud Nine Vapes', 'Cloud Nine Cartridge 0.5g', 4, m(0.5, 'g'), 50, 14, 32, 2, '510-thread ceramic cartridge, distillate with botanical terpenes.'],
  ['Cloud Nine Vapes', 'Cloud Nine Cartridge 1g', 4, m(1, 'g'), 50, 24, 55, 3, '510-thread ceramic cartridge, full gram.'],
  ['Cloud Nine Vapes', 'Cloud Nine Live Resin Pod 0.5g', 4, m(0.5, 'g'), 50, 18, 42, 4, 'Pod-system live resin, strain-specific.'],
  ['Cloud Nine Vapes', 'Cloud Nine Disposable 0.3g', 4, m(0.3, 'g'), 50, 9, 22, 5, 'Rechargeable all-in-one disposable.'],
  ['Mellow Bites', 'Mellow Bites Watermelon Gummies 100mg', 5, m(10, 'units'), 48, 9, 20, null, 'Ten 10 mg THC gummies, vegan pectin.'],
  ['Mellow Bites', 'Mellow Bites Sour Cherry Gummies 100mg', 5, m(10, 'units'), 48, 9, 20, null, 'Ten 10 mg THC gummies, sour sanded.'],
  ['Mellow Bites', 'Mellow Bites 1:1 CBD Gummies 100mg', 5, m(10, 'units'), 48, 10, 22, null, 'Ten 10 mg THC / 10 mg CBD gummies.'],
  ['Mellow Bites', 'Mellow Bites Dark Chocolate Bar 100mg', 5, m(10, 'units'), 24, 10, 24, null, 'Scored 70% cacao bar, ten 10 mg pieces.'],
  ['Pacific Tonics', 'Pacific Tonics Lemon Soda 10mg', 5, m(355, 'ml'), 24, 3.5, 8, null, 'Sparkling lemon soda, nano-emulsified THC.'],
  ['Pacific Tonics', 'Pacific Tonics Tincture 1000mg', 6, m(30, 'ml'), 12, 28, 60, null, 'MCT tincture, 33 mg per dropper.'],
  ['Pacific Tonics', 'Pacific Tonics CBD Tincture 2:1', 6, m(30, 'ml'), 12, 26, 55, null, '2:1 CBD:THC tincture for daytime use.'],
  ['Pacific Tonics', 'Pacific Tonics Relief Balm 500mg', 7, m(2, 'fl oz'), 12, 18, 40, null, 'Topical balm with menthol and arnica.'],
  ['Golden Coast Farms', 'Golden Coast Bulk Flower 1 lb', 0, m(1, 'lb'), 1, 1150, 2200, 6, 'Bulk indoor flower for white-label packaging.'],
  ['Highland Select', 'Highland Bulk Trim 1 lb', 2, m(1, 'lb'), 1, 90, 150, 7, 'Sugar trim for extraction.'],
  ['Redwood Rolls', 'Redwood Blunt 2g', 1, m(1, 'units'), 50, 9, 20, 8, 'Hemp-wrapped 2 g blunt.'],
  ['Sierra Extracts', 'Sierra Hash Rosin Cart 0.5g', 4, m(0.5, 'g'), 50, 26, 60, 9, 'Solventless rosin cartridge, no additives.'],
]
const REPS = ['Chris Patel', 'Renee Carter', 'Whitney Moore']
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
const ORDER_NOTES = [
  'Deliver to back dock between 10am and 2pm; call the buyer 30 minutes before arrival.',
  'Client requested all flower from the same batch where possible.',
  'Split delivery: edibles ship separately once the new lot clears testing.',
  'Buyer asked for updated COAs to be emailed with the manifest.',
  'Net terms approved by finance after credit review.',
  '',
]

export function seedDistribution(ctx: SeedCtx): SeedRecords {
  const r = ctx.rng
  const id = ctx.id
  const products: SeedDoc[] = CATALOG.map(([brand, name, prodtype, size, caseQty, wholesale, msrp, strain, desc], i) => ({
    _id: id('dis_products', i),
    name,
    sku: `${brand.split(' ').map((w) => w[0]).join('')}-${pad(1001 + i, 4)}`,
    brand,
    prodtype: id('set_prodtypes', prodtype % N_PRODTYPES),
    strain: strain === null ? '' : id('set_strains', strain),
    supplier: id('set_clients', SUPPLIER_OF[brand] ?? 9),
    unitSize: size,
    caseQty,
    wholesale,
    msrp,
    image: fileUrl(ctx, 'products', `${slug(name)}.png`),
    coa: fileUrl(ctx, 'coa', `${slug(name)}-coa.pdf`),
    description: `${desc} Sold by the unit, ${caseQty} units per case. Store below 75°F away from light.`,
    added: at(ctx, r.int(60, 540)),
    active: i === 12 || i === 27 ? 'no' : 'yes',
    ...(i === 12 || i === 27 ? { IsUsed: 'no' } : {}),
  }))

  const inventory: SeedDoc[] = []
  for (let i = 0; i < 60; i++) {
    const p = i % CATALOG.length
    const [, , , size] = CATALOG[p]
    const bulk = size.unit === 'lb'
    const received = at(ctx, r.int(2, 150))
    const qty = bulk ? m(r.float(2, 25, 2), 'lb') : m(i % 12 === 7 ? 0 : r.int(12, 480), 'units')
    const gone = qty.qty === 0
    const labStatus = ageDays(ctx, received) < 7 ? r.pick(['Submitted', 'Not Submitted']) : r.chance(0.05) ? 'Retest' : 'Test Passed'
    const cold = CATALOG[p][2] === 5 // edibles and drinks go to cold storage
    const room = labStatus === 'Retest' ? 1 : labStatus !== 'Test Passed' ? 0 : cold ? 5 : r.chance(0.1) ? 6 : 2
    inventory.push({
      _id: id('dis_inventory', i),
      tag: disInvTag(ctx, i),
      product: products[p]._id,
      qty,
      reserved: bulk ? m(r.chance(0.3) ? r.float(1, 2, 2) : 0, 'lb') : m(gone ? 0 : r.int(0, Math.min(48, qty.qty)), 'units'),
      location: id('set_rooms', room),
      shelf: room === 2 ? `V-${r.pick(['A', 'B', 'C', 'D'])}${r.int(1, 6)}` : room === 5 ? `C-${r.int(1, 4)}` : `${r.pick(['R', 'Q', 'S'])}-${r.int(1, 3)}`,
      supplier: products[p].supplier,
      batch: `${yymmdd(received)}-${String.fromCharCode(65 + (i % 26))}${r.int(1, 9)}`,
      unitCost: r2(CATALOG[p][5] * r.float(0.55, 0.75)),
      labStatus,
      received,
      expires: CATALOG[p][2] >= 5 ? plusDays(received, r.int(180, 365)) : plusDays(received, 365),
      note: r.chance(0.25) ? r.pick([
        'Two units returned damaged by client; awaiting adjustment approval.',
        'Counted during monthly vault audit, quantity confirmed.',
        'Relabeled with updated net weight after repackaging.',
        'Reserved for the standing weekly order from The Green Door.',
      ]) : '',
      ...(gone ? { IsUsed: 'no' } : {}),
    })
  }
  const tagOfProduct = (p: number) => inventory.find((d) => d.product === products[p]._id)?.tag as string | undefined

  const lines = (n: number) => {
    const picks = new Set<number>()
    while (picks.size < n) picks.add(r.int(0, CATALOG.length - 1))
    return [...picks].map((p, j) => {
      const qty = CATALOG[p][5] > 500 ? r.int(1, 3) : r.pick([6, 12, 24, 32, 48, 60, 96])
      const price = CATALOG[p][5]
      return { id: String(j), product: products[p]._id, tag: tagOfProduct(p) ?? '', qty, price, total: r2(qty * price) }
    })
  }

  const orders: SeedDoc[] = []
  for (let i = 0; i < 50; i++) {
    const days = 300 * ((50 - i) / 50) ** 1.4 + r.float(0, 1)
    const orderDate = at(ctx, days)
    const items = lines(r.int(1, 6))
    const subtotal = r2(items.reduce((s, it) => s + it.total, 0))
    const exciseTax = r2(subtotal * 0.15)
    const status = days > 14 ? (r.chance(0.06) ? 'Cancelled' : 'Delivered') : days > 8 ? r.pick(['Delivered', 'Shipped']) : r.pick(ORDER_STATUS.slice(1, 4))
    const shipped = ['Shipped', 'Delivered'].includes(status)
    const terms = r.pick(PAY_TERMS)
    const client = r.pick(BUYERS)
    orders.push({
      _id: id('dis_orders', i),
      orderNo: `SO-${orderDate.slice(2, 4)}${pad(1001 + i, 5)}`,
      client: id('set_clients', client),
      buyer: id('set_contacts', client),
      orderDate,
      deliveryDate: status === 'Cancelled' ? '' : plusDays(orderDate, r.int(2, 6)),
      items,
      subtotal,
      exciseTax,
      total: r2(subtotal + exciseTax),
      status,
      terms,
      paid: status === 'Delivered' && (terms === 'COD' || days > 35 || r.chance(0.5)) ? 'yes' : 'no',
      rep: r.pick(REPS),
      manifestNo: shipped ? `${pad(r.int(1, 9999999), 10)}` : '',
      manifest: shipped ? fileUrl(ctx, 'manifests', `manifest-so-${pad(1001 + i, 5)}.pdf`) : '',
      notes: r.pick(ORDER_NOTES),
      ...(status === 'Delivered' && days > 60 ? locked : {}),
      ...(status === 'Cancelled' ? { IsUsed: 'no' } : {}),
    })
  }

  const cart: SeedDoc[] = []
  for (let i = 0; i < 5; i++) {
    const items = lines(r.int(2, 5))
    cart.push({
      _id: id('dis_cart', i),
      client: id('set_clients', BUYERS[(i * 4 + 1) % BUYERS.length]),
      buyer: id('set_contacts', BUYERS[(i * 4 + 1) % BUYERS.length]),
      rep: REPS[i % REPS.length],
      created: at(ctx, r.float(0, 3)),
      items,
      subtotal: r2(items.reduce((s, it) => s + it.total, 0)),
      terms: r.pick(PAY_TERMS),
      requestedDelivery: at(ctx, -r.int(2, 9)),
      notes: r.pick(ORDER_NOTES),
    })
  }

  const reports: SeedDoc[] = []
  for (let i = 0; i < 10; i++) {
    const month = new Date(Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth() - 10 + i, 1))
    const end = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0, 23, 59))
    const type = (['Sales', 'Inventory', 'Tax', 'Compliance'] as const)[i % 4]
    const label = month.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
    const inPeriod = orders.filter((o) => o.orderDate as string >= month.toISOString() && (o.orderDate as string) <= end.toISOString() && o.status !== 'Cancelled')
    reports.push({
      _id: id('dis_reports', i),
      name: `${type} Report - ${label}`,
      type,
      periodStart: month.toISOString(),
      periodEnd: end.toISOString(),
      generated: plusDays(end.toISOString(), r.int(1, 5)),
      preparedBy: type === 'Sales' ? 'Renee Carter' : type === 'Inventory' ? 'Tomas Novak' : 'Jordan Lee',
      totalSales: r2(inPeriod.reduce((s, o) => s + (o.total as number), 0)),
      orders: inPeriod.length,
      file: fileUrl(ctx, 'reports', `${slug(type)}-${month.toISOString().slice(0, 7)}.pdf`),
      summary: `${type} summary for ${label}: ${inPeriod.length} orders shipped to ${new Set(inPeriod.map((o) => o.client)).size} licensed retailers. Figures reconciled against state manifests.`,
      ...locked,
    })
  }
  return { dis_products: products, dis_inventory: inventory, dis_orders: orders, dis_cart: cart, dis_reports: reports }
}

// ------------------------------------------------------------------ tasks, sensors, testing, finance
/** [title, category, room]; cultivation rooms (set_rooms i): 0 mother, 1 clone, 2-3 veg, 4-6 flower, 7 dry, 8 trim & cure, 9 vault. */
const CUL_TASKS: [string, string, number][] = [
  ['Feed flower rooms - week 6 nutrients', 'Feeding', 5], ['Flush week 9 plants', 'Feeding', 6], ['Mix veg nutrient tank', 'Feeding', 3],
  ['IPM spray - Lost Coast Plant Therapy', 'IPM', 4], ['Release predatory mites (Amblyseius)', 'IPM', 2], ['Sticky trap inspection', 'IPM', 5],
  ['Transplant rooted clones to 1 gal', 'Transplant', 1], ['Up-pot veg plants to 5 gal', 'Transplant', 2], ['Defoliate day-21 canopy', 'Defoliation', 4],
  ['Lollipop lower branches', 'Defoliation', 5], ['Harvest and wet weigh', 'Harvest', 6], ['Move harvest to dry room', 'Harvest', 7],
  ['Sanitize flower room after harvest', 'Cleaning', 6], ['Clean and calibrate pH pens', 'Maintenance', 2], ['Replace HVAC filters', 'Maintenance', 7],
  ['Monthly plant tag reconciliation', 'Inventory Audit', 4], ['Weekly waste log review', 'Compliance', 9], ['Take cuttings from mothers', 'Transplant', 0],
  ['Dehumidifier service', 'Maintenance', 7], ['New trimmer onboarding', 'Training', 8],
]
/** Distribution rooms: 0 receiving, 1 quarantine, 2 main vault, 3 packaging, 4 pre-roll, 5 cold storage, 6 staging, 7 dock, 8 returns, 9 destruction. */
const DIS_TASKS: [string, string, number][] = [
  ['Vault cycle count', 'Inventory Audit', 2], ['Receive inbound transfer', 'Inventory Audit', 0], ['Route deliveries - north metro', 'Delivery', 7],
  ['Route deliveries - downtown', 'Delivery', 7], ['Pack approved orders', 'Delivery', 6], ['Pull lab samples for new lots', 'Compliance', 1],
  ['Upload manifests to state system', 'Compliance', 6], ['Van inspection and GPS check', 'Maintenance', 7], ['Camera retention audit', 'Compliance', 2],
  ['Clean packaging room', 'Cleaning', 3], ['Relabel returned units', 'Inventory Audit', 8], ['Driver safety training', 'Training', 7],
]

export function seedShared(ctx: SeedCtx, inv: InventoryInfo): SeedRecords {
  const r = ctx.rng
  const id = ctx.id
  const cult = ctx.facility.kind === 'cultivation'

  // ---- calendar tasks: three weeks back, three weeks ahead
  const pool = cult ? CUL_TASKS : DIS_TASKS
  const tasks: SeedDoc[] = []
  for (let i = 0; i < 45; i++) {
    const [title, category, room] = pool[i % pool.length]
    const daysAgo = 21 - i + r.float(0, 0.6)
    const allDay = category === 'Inventory Audit' && r.chance(0.5)
    const start = allDay ? at(ctx, Math.round(daysAgo), 8) : at(ctx, daysAgo)
    // the last two days' tasks are still open, so whatever the time of day there is overdue work to show
    const status = daysAgo > 2 ? (r.chance(0.08) ? 'Cancelled' : 'Done') : daysAgo > -1 ? r.pick(['In Progress', 'Scheduled']) : 'Scheduled'
    tasks.push({
      _id: id('sch_tasks', i),
      title,
      start,
      end: plusDays(start, allDay ? 1 : r.pick([1, 1.5, 2, 3, 4]) / 24),
      allDay: allDay ? 'yes' : 'no',
      assignee: r.pick(STAFF[cult ? 'cultivation' : 'distribution'].filter((n) => n !== 'Sam Rivera')),
      room: id('set_rooms', room),
      category,
      priority: r.pick(PRIORITIES),
      status,
      notes: r.chance(0.4) ? r.pick([
        'Check the SOP binder for the current revision before starting; log completion in the room book.',
        'Two people required. Wear fresh gowns and gloves when entering from the veg side.',
        'Record readings on the clipboard and photograph anything unusual for the grow lead.',
        'Coordinate with security so the vault door schedule is not interrupted.',
      ]) : '',
      ...(status === 'Cancelled' ? { IsUsed: 'no' } : {}),
    })
  }

  // ---- devices
  const deviceRows: [string, string, string, number][] = cult
    ? [
        ['Clone Room Climate', 'sensor', 'Canopy Sense TH-2', 1], ['Mother Room Climate', 'sensor', 'Canopy Sense TH-2', 0],
        ['Veg Room 1 Climate', 'sensor', 'Canopy Sense TH-2', 2], ['Veg Room 2 Climate', 'sensor', 'Canopy Sense TH-2', 3],
        ['Flower Room 1 CO2', 'sensor', 'Canopy Sense CO2-X', 4], ['Flower Room 2 CO2', 'sensor', 'Canopy Sense CO2-X', 5],
        ['Flower Room 3 Climate', 'sensor', 'Canopy Sense TH-2', 6], ['Trim & Cure Climate', 'sensor', 'Canopy Sense TH-2', 8],
        ['Dry Room Climate', 'sensor', 'Canopy Sense TH-2', 7], ['Flower Room 1 Substrate EC', 'sensor', 'TEROS 12', 4],
        ['Harvest Scale', 'scale', 'Ohaus Defender 5000', 7], ['Waste Scale', 'scale', 'Ohaus Ranger 3000', 8],
        ['Packaging Scale', 'scale', 'A&D GF-6100', 9], ['Handheld RFID 1', 'rfid', 'Zebra RFD40', 4],
        ['Handheld RFID 2', 'rfid', 'Zebra RFD40', 2], ['Vault Label Printer', 'printer', 'Zebra ZD621', 9],
        ['Plant Tag Printer', 'printer', 'Zebra ZT411', 1],
      ]
    : [
        ['Vault Climate', 'sensor', 'Canopy Sense TH-2', 2], ['Cold Storage Temp', 'sensor', 'Canopy Sense T-1', 5],
        ['Shipping Dock Temp', 'sensor', 'Canopy Sense T-1', 7], ['Packaging Room Climate', 'sensor', 'Canopy Sense TH-2', 3],
        ['Receiving Scale', 'scale', 'Ohaus Defender 5000', 0], ['Packaging Scale', 'scale', 'A&D GF-6100', 3],
        ['Dock RFID Portal', 'rfid', 'Impinj R700', 7], ['Handheld RFID', 'rfid', 'Zebra RFD40', 2],
        ['Shipping Label Printer', 'printer', 'Zebra ZD621', 6], ['Package Label Printer', 'printer', 'Zebra ZD421', 3],
      ]
  const devices: SeedDoc[] = deviceRows.map(([deviceName, type, model, room], i) => {
    const online = !(i === 3 || i === 9)
    return {
      _id: id('sen_devices', i),
      deviceID: `${type.slice(0, 3).toUpperCase()}-${ctx.tag('package', i).slice(3, 9)}${pad(i + 1, 3)}`,
      deviceName,
      location: id('set_rooms', room),
      type,
      model,
      firmware: type === 'sensor' ? `2.${r.int(3, 5)}.${r.int(0, 9)}` : `v${r.int(4, 7)}.${r.int(0, 20)}`,
      ip: `10.20.${cult ? 1 : 2}.${40 + i}`,
      lastSeen: online ? new Date(ctx.now.getTime() - r.int(5, 600) * 1000).toISOString() : at(ctx, r.int(2, 9)),
      ...(type === 'rfid' || type === 'sensor' ? { battery: r.int(online ? 35 : 2, 100) } : {}),
      online: online ? 'yes' : 'no',
    }
  })
  const devOf = (type: string, n = 0) => devices.filter((d) => d.type === type)[n]

  const scannerRows: [string, string, 'rfid' | 'scale', string][] = cult
    ? [
        ['fac_plants', 'tag', 'rfid', 'Scan the plant tag instead of typing it'], ['fac_plants', 'dead_weight', 'scale', 'Weigh destroyed plant material'],
        ['fac_plantings', 'mtag', 'rfid', 'Scan the plant batch tag'], ['fac_harvests', 'wetWeight', 'scale', 'Wet weight straight off the harvest scale'],
        ['fac_harvests', 'dryWeight', 'scale', 'Dry weight at the end of cure'], ['fac_inventory', 'tag', 'rfid', 'Scan package tags during audits'],
        ['fac_inventory', 'qty', 'scale', 'Package weight'], ['fac_waste', 'weight', 'scale', 'Waste weight before mixing'],
        ['fac_trim', 'budWeight', 'scale', 'Trimmed bud weight per trimmer'], ['fac_trim', 'shake', 'scale', 'Shake weight read remotely from the trim room scale'],
      ]
    : [
        ['dis_inventory', 'tag', 'rfid', 'Scan package tags on receiving'], ['dis_inventory', 'qty', 'scale', 'Weigh bulk packages on receiving'],
        ['tes_inventory', 'tag', 'rfid', 'Scan the source package of a lab sample'], ['tes_inventory', 'weight', 'scale', 'Sample weight pulled for the lab'],
      ]
  // SPEC §3 `id:prt` / `id:more`: a scan on the table screen prints the scanned record's label or opens it (decision 060)
  const lookupRows: [string, string, 'rfid', string][] = cult
    ? [['fac_plants', 'id:prt', 'rfid', 'Scan a plant to print its tag label'], ['fac_inventory', 'tag:more', 'rfid', 'Scan a package tag to open the package']]
    : [['dis_inventory', 'tag:more', 'rfid', 'Scan a package tag to open the package']]
  const scanners: SeedDoc[] = [...scannerRows, ...lookupRows].map(([table, field, type, description], i) => ({ _id: id('sen_scanner_settings', i), table, field, type, description }))
  const inputs: SeedDoc[] = scannerRows.map(([table, field, type], i) => {
    const dev = devOf(type, type === 'scale' && field === 'weight' && cult ? 1 : 0)!
    return {
      _id: id('sen_input_devices', i),
      field: `${table}.${field}`,
      deviceid: dev.deviceID,
      type,
      args: type === 'scale' && i % 3 === 0 ? 'user' : 'other',
      station: dev._id,
    }
  })

  // ---- testing: samples pulled from this facility's packages
  const tes: SeedDoc[] = []
  const testable = inv.docs.filter((d) => (inv.categories.get(d.product as string) ?? '') in SAMPLE_OF)
  for (let i = 0; i < 30; i++) {
    const src = testable[(i * 7) % testable.length]
    const sampleType = SAMPLE_OF[inv.categories.get(src.product as string) ?? ''] ?? SAMPLE_TYPES[0]
    const received = at(ctx, 150 - i * 5 + r.float(0, 3))
    const age = ageDays(ctx, received)
    const status = age < 3 ? 'Received' : age < 7 ? 'In Progress' : r.chance(0.1) ? 'Failed' : r.chance(0.05) ? 'Retest Requested' : 'Passed'
    const done = ['Passed', 'Failed', 'Retest Requested'].includes(status)
    const flower = sampleType === 'Flower' || sampleType === 'Pre-Roll'
    const thc = flower ? r.float(17, 31, 1) : ['Edible', 'Tincture', 'Topical'].includes(sampleType) ? r.float(0.2, 1.5, 2) : r.float(65, 92, 1)
    const pest = status === 'Failed' && r.chance(0.5) ? 'no' : 'yes'
    tes.push({
      _id: id('tes_inventory', i),
      sampleId: `LS-${received.slice(2, 4)}-${pad(3201 + i * 3, 5)}`,
      tag: src.tag,
      strain: inv.strains.get(src.product as string) ?? '',
      sampleType,
      lab: r.chance(0.5) ? LABS[0] : r.pick(LABS),
      weight: sampleType === 'Tincture' ? m(30, 'ml') : sampleType === 'Edible' ? m(r.int(2, 4), 'units') : m(r.float(4, 16, 1), 'g'),
      received,
      reported: done ? plusDays(received, Math.min(r.int(4, 8), age - 0.2)) : '',
      testStatus: status,
      thc: done || status === 'In Progress' ? thc : '',
      cbd: done ? r.float(0.02, sampleType === 'Tincture' || sampleType === 'Topical' ? 20 : 1.2, 2) : '',
      terpenes: done && flower ? r.float(0.8, 4.2, 2) : '',
      moisture: done && flower ? r.float(8, 13, 1) : '',
      pesticides: done ? pest : '',
      microbials: done ? (status === 'Failed' && pest === 'yes' ? 'no' : 'yes') : '',
      passed: status === 'Passed' ? 'yes' : 'no',
      coa: done ? fileUrl(ctx, 'coa', `ls-${pad(3201 + i * 3, 5)}.pdf`) : '',
      notes: status === 'Failed' ? 'Failed panel; package placed on hold and remediation or destruction plan filed with the state.'
        : status === 'Retest Requested' ? 'Potency variance above 10% of label claim; client requested retest on a fresh sample.' : '',
      ...(done ? locked : {}),
    })
  }

  // ---- finance
  const taxKind = cult ? 'Local Cannabis Tax' : 'Excise Tax'
  const taxRate = cult ? 2.5 : 15
  const taxInv: SeedDoc[] = []
  for (let i = 0; i < 30; i++) {
    const src = inv.docs[(i * 5 + 2) % inv.docs.length]
    const q = src.qty as Measure
    const unitValue = q.unit === 'lb' ? r.float(700, 1400) : q.unit === 'oz' ? r.float(60, 110) : q.unit === 'g' ? r.float(4, 12) : r.float(8, 30)
    const value = r2(Math.max(q.qty, 1) * unitValue)
    const taxDate = at(ctx, 170 - i * 5.5 + r.float(0, 2))
    const age = ageDays(ctx, taxDate)
    const state = age > 60 ? 'p' : age > 25 ? (r.chance(0.5) ? 'p' : 'd') : age > 10 ? 'd' : 't'
    const d = new Date(taxDate)
    taxInv.push({
      _id: id('tax_inventory', i),
      tag: src.tag,
      item: inv.productNames.get(src.product as string) ?? '',
      category: inv.categories.get(src.product as string) ?? '',
      weight: q,
      value,
      taxKind,
      rate: taxRate,
      taxAmount: r2((value * taxRate) / 100),
      taxState: state,
      period: `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`,
      taxDate,
      ...(state === 'p' ? locked : {}),
    })
  }

  const receivables: SeedDoc[] = []
  for (let i = 0; i < 42; i++) {
    const invoiceDate = at(ctx, 120 - i * 2.8 + r.float(0, 1.5))
    const terms = r.pick(PAY_TERMS.slice(1))
    const dueDate = plusDays(invoiceDate, Number(terms.slice(4)))
    const pastDue = new Date(dueDate).getTime() < ctx.now.getTime()
    // oldest third paid, middle third due, newest third pending (a few swapped so the states overlap in time)
    const band = i === 12 || i === 30 ? 1 : i === 15 ? 0 : i === 27 ? 2 : Math.floor(i / 14)
    const state = (['p', 'd', 't'] as const)[band]
    const amount = r2(r.float(1200, 48000))
    const excise = cult ? 0 : r2(amount * 0.15)
    const sales = r2(amount * (cult ? 0.025 : 0.0725))
    receivables.push({
      _id: id('tax_receivables', i),
      invoiceNo: `INV-${invoiceDate.slice(2, 4)}-${pad(4101 + i, 5)}`,
      client: id('set_clients', BUYERS[(i * 7 + 3) % BUYERS.length]),
      invoiceDate,
      dueDate,
      amount,
      exciseTax: excise,
      salesTax: sales,
      balance: state === 'p' ? 0 : r2(amount + excise + sales),
      taxState: state,
      terms,
      invoicePdf: fileUrl(ctx, 'invoices', `inv-${pad(4101 + i, 5)}.pdf`),
      notes: state === 'd' && pastDue ? 'Past due: reminder sent, account flagged for COD on next order.' : '',
      ...(state === 'p' ? locked : {}),
    })
  }

  const paidInvoices = receivables.filter((x) => x.taxState === 'p')
  const payments: SeedDoc[] = []
  for (let i = 0; i < 40; i++) {
    const rec = paidInvoices[i] as SeedDoc | undefined
    const paid = rec
      ? plusDays(rec.invoiceDate as string, Math.min(r.int(3, 28), Math.max(0.2, ageDays(ctx, rec.invoiceDate as string) - 0.3)))
      : at(ctx, r.float(0.5, 150))
    const method = r.pick(PAY_METHODS)
    const amount = rec ? r2((rec.amount as number) + (rec.exciseTax as number) + (rec.salesTax as number)) : r2(r.float(800, 30000))
    const taxAmount = rec ? r2((rec.exciseTax as number) + (rec.salesTax as number)) : r2(amount * (cult ? 0.025 : 0.2))
    const safePaid = new Date(paid).getTime() > ctx.now.getTime() ? at(ctx, 0.2) : paid
    payments.push({
      _id: id('fin_payments', i),
      paymentNo: `PMT-${safePaid.slice(2, 4)}${pad(7001 + i, 5)}`,
      client: rec ? rec.client : id('set_clients', r.pick(BUYERS)),
      paid: safePaid,
      amount,
      method,
      reference: method === 'Cash' ? `CASH-${pad(r.int(1, 9999), 4)}` : method === 'Check' ? `CHK ${r.int(1001, 9999)}` : `${method.replace(/\s/g, '').toUpperCase()}-${r.int(100000, 999999)}`,
      invoice: rec ? rec.invoiceNo : '',
      taxAmount,
      taxState: rec ? 'p' : ageDays(ctx, safePaid) > 30 ? 'p' : r.pick(['t', 'd']),
      receivedBy: cult ? r.pick(['Alex Morgan', 'Jordan Lee', 'Dana Whitfield']) : r.pick(['Alex Morgan', 'Jordan Lee', 'Renee Carter']),
      cleared: ageDays(ctx, safePaid) > 3 || method === 'Cash' ? 'yes' : 'no',
      memo: rec ? '' : r.pick([
        'Prepayment on account; apply to the next invoice once the order ships.',
        'Partial payment against open balance per payment plan agreed with the buyer.',
        'Cash counted twice in the vault room on camera; deposit slip attached to the batch.',
      ]),
      ...(ageDays(ctx, safePaid) > 90 ? locked : {}),
    })
  }

  const finReports: SeedDoc[] = []
  for (let i = 0; i < 10; i++) {
    const month = new Date(Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth() - 10 + i, 1))
    const label = month.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
    const type = i % 2 === 0 ? 'Tax' : 'Payments'
    const revenue = r2(r.float(cult ? 180000 : 300000, cult ? 420000 : 900000))
    const collected = r2(revenue * (cult ? 0.025 : 0.2))
    const recent = i >= 8
    finReports.push({
      _id: id('fin_reports', i),
      name: `${type} Report - ${label}`,
      type,
      period: month.toISOString().slice(0, 7),
      generated: plusDays(new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1)).toISOString(), r.int(2, 6)),
      revenue,
      taxCollected: collected,
      taxRemitted: recent ? 0 : collected,
      taxState: recent ? (i === 9 ? 't' : 'd') : 'p',
      preparedBy: i % 2 === 0 ? 'Jordan Lee' : 'Alex Morgan',
      file: fileUrl(ctx, 'reports', `fin-${type.toLowerCase()}-${month.toISOString().slice(0, 7)}.pdf`),
      summary: `${label}: revenue $${revenue.toLocaleString('en-US')}, ${taxKind.toLowerCase()} collected $${collected.toLocaleString('en-US')}. ${recent ? 'Return not yet filed.' : 'Return filed and paid on time.'}`,
      ...(recent ? {} : locked),
    })
  }
  // keep only report dates in the past
  for (const f of finReports) if (new Date(f.generated as string).getTime() > ctx.now.getTime()) f.generated = at(ctx, 0.5)

  return {
    sch_tasks: tasks,
    sen_devices: devices,
    sen_scanner_settings: scanners,
    sen_input_devices: inputs,
    tes_inventory: tes,
    tax_inventory: taxInv,
    fin_payments: payments,
    tax_receivables: receivables,
    fin_reports: finReports,
  }
}
