/**
 * Seed records of the "business" group: the shared Settings reference tables (strains, rooms,
 * clients, contacts, product types, ...) that other groups point at by id, plus CRM, Other and
 * Operations (business-2.ts, business-3.ts). Cultivation and distribution facilities get the
 * same number of settings records so `ctx.id('set_rooms', 4)` and friends exist in both.
 */
import { fileRef, type SeedCtx, type SeedDoc, type SeedRecords } from '../kit'
import { L } from '../schemas/business'
import { helpers, seedCrm, type H } from './business-2'
import { AGENCY, seedOps, seedOther } from './business-3'

export const STRAINS: Array<[string, string, number, number, string, string, number, string]> = [
  ['Blue Dream', 'Hybrid', 21, 0.1, 'Blueberry x Haze', 'Humboldt Seed Organization', 10, 'Myrcene, Pinene, Caryophyllene'],
  ['OG Kush', 'Hybrid', 23, 0.1, 'Chemdawg x Hindu Kush', 'Josh D Farms', 9, 'Myrcene, Limonene, Caryophyllene'],
  ['Girl Scout Cookies', 'Hybrid', 25, 0.1, 'OG Kush x Durban Poison', 'Cookie Fam Genetics', 9, 'Caryophyllene, Limonene, Humulene'],
  ['Gorilla Glue #4', 'Hybrid', 27, 0.1, "Chem's Sister x Sour Dubb x Chocolate Diesel", 'GG Strains', 9, 'Caryophyllene, Myrcene, Limonene'],
  ['Sour Diesel', 'Sativa', 22, 0.2, 'Chemdawg 91 x Super Skunk', 'Reservoir Seeds', 11, 'Caryophyllene, Myrcene, Limonene'],
  ['Granddaddy Purple', 'Indica', 20, 0.1, 'Purple Urkle x Big Bud', 'Ken Estes', 8, 'Myrcene, Pinene, Caryophyllene'],
  ['Wedding Cake', 'Hybrid', 26, 0.1, 'Triangle Kush x Animal Mints', 'Seed Junky Genetics', 9, 'Limonene, Caryophyllene, Myrcene'],
  ['Gelato #33', 'Hybrid', 24, 0.1, 'Sunset Sherbet x Thin Mint GSC', 'Sherbinskis', 9, 'Caryophyllene, Limonene, Humulene'],
  ['Northern Lights', 'Indica', 18, 0.1, 'Afghani x Thai', 'Sensi Seeds', 8, 'Myrcene, Caryophyllene, Pinene'],
  ['Jack Herer', 'Sativa', 19, 0.1, 'Haze x Northern Lights #5 x Shiva Skunk', 'Sensi Seeds', 10, 'Terpinolene, Caryophyllene, Pinene'],
  ['Zkittlez', 'Indica', 20, 0.1, 'Grape Ape x Grapefruit', '3rd Gen Family / Terp Hogz', 9, 'Caryophyllene, Humulene, Linalool'],
  ['ACDC', 'Hybrid', 1, 16, 'Cannatonic phenotype (MK Ultra x G13 Haze)', 'Resin Seeds', 10, 'Myrcene, Pinene, Caryophyllene'],
]

/** [name, type, capacity (plants or packages), canopy sq ft, METRC location type, lighting, hvac] */
export const ROOMS: Record<'cultivation' | 'distribution', Array<[string, string, number, number, string, string, string]>> = {
  cultivation: [
    ['Mother Room', 'Mother', 60, 400, 'Plants Only', 'Fluence SPYDR 2i x 8', 'Mini-split 3 ton'],
    ['Clone Room', 'Propagation', 2400, 300, 'Plants Only', 'T5 fluorescent racks x 12', 'Mini-split 2 ton'],
    ['Veg Room 1', 'Vegetative', 600, 1200, 'Plants Only', 'Fluence VYPR 2p x 24', 'Rooftop unit 10 ton'],
    ['Veg Room 2', 'Vegetative', 600, 1200, 'Plants Only', 'Fluence VYPR 2p x 24', 'Rooftop unit 10 ton'],
    ['Flower Room 1', 'Flowering', 480, 2400, 'Plants Only', 'Gavita Pro 1700e LED x 48', 'Chiller loop + Quest 335 dehu x 4'],
    ['Flower Room 2', 'Flowering', 480, 2400, 'Plants Only', 'Gavita Pro 1700e LED x 48', 'Chiller loop + Quest 335 dehu x 4'],
    ['Flower Room 3', 'Flowering', 480, 2400, 'Plants Only', 'Fluence SPYDR 2x x 48', 'Chiller loop + Quest 335 dehu x 4'],
    ['Dry Room', 'Drying', 1400, 0, 'Harvests & Packages', 'Green safety lights', 'Quest 225 dehu x 2, 60F / 60% RH'],
    ['Trim & Cure Room', 'Curing', 300, 0, 'Harvests & Packages', 'LED panels', 'Mini-split 3 ton'],
    ['Vault', 'Storage', 900, 0, 'Packages Only', 'LED panels', 'Mini-split 1.5 ton'],
  ],
  distribution: [
    ['Receiving Bay', 'Receiving', 200, 0, 'Packages Only', 'High-bay LED', 'Ducted HVAC'],
    ['Quarantine Cage', 'Quarantine', 150, 0, 'Packages Only', 'High-bay LED', 'Ducted HVAC'],
    ['Main Vault', 'Storage', 2500, 0, 'Packages Only', 'LED panels', 'Ducted HVAC, 65F'],
    ['Packaging Room', 'Packaging', 400, 0, 'Packages Only', 'LED panels', 'Ducted HVAC'],
    ['Pre-Roll Room', 'Processing', 300, 0, 'Packages Only', 'LED panels', 'Ducted HVAC + HEPA'],
    ['Cold Storage', 'Storage', 600, 0, 'Packages Only', 'LED panels', 'Walk-in cooler, 38F'],
    ['Order Staging', 'Shipping', 300, 0, 'Packages Only', 'High-bay LED', 'Ducted HVAC'],
    ['Shipping Dock', 'Shipping', 120, 0, 'Packages Only', 'High-bay LED', 'Dock heaters'],
    ['Returns Cage', 'Quarantine', 100, 0, 'Packages Only', 'High-bay LED', 'Ducted HVAC'],
    ['Destruction Cage', 'Destruction', 80, 0, 'Packages Only', 'High-bay LED', 'Ducted HVAC'],
  ],
}

const CLIENTS: Array<[string, string]> = [
  ['Evergreen Wellness Dispensary', 'Dispensary'], ['The Green Door', 'Dispensary'], ['Highland Botanicals', 'Dispensary'], ['Elevate Cannabis Co.', 'Dispensary'],
  ['Riverbend Remedies', 'Medical Dispensary'], ['Sweet Leaf Collective', 'Dispensary'], ['Canna Provisions', 'Dispensary'], ['Blue Sky Cannabis', 'Dispensary'],
  ['Northstar Apothecary', 'Medical Dispensary'], ['Summit Logistics & Distribution', 'Distributor'], ['Sunset Extracts', 'Processor'], ['Verde Valley Farms', 'Cultivator'],
  ['Clearwater Analytical Labs', 'Testing Lab'], ['Higher Path Delivery', 'Delivery'], ['Ironwood Cannabis', 'Dispensary'], ['Lotus Leaf Dispensary', 'Dispensary'],
  ['Maple & Main Cannabis', 'Dispensary'], ['Old Town Herbal', 'Dispensary'], ['Cedar Creek Microfarm', 'Microbusiness'], ['Kind Goods Market', 'Dispensary'],
]

const PRODTYPES: Array<[string, string, string, string, string, number, string]> = [
  ['Flower', 'Buds', 'Weight', 'g', 'FLW', 365, 'Dried and cured cannabis flower, sold by weight or in eighths.'],
  ['Pre-Roll', 'Pre-Roll Flower', 'Count', 'units', 'PRE', 270, 'Pre-rolled joints (0.5 g and 1 g), singles and multi-packs.'],
  ['Shake/Trim', 'Shake/Trim', 'Weight', 'g', 'TRM', 180, 'Trim and shake for extraction or pre-roll production.'],
  ['Concentrate', 'Concentrate', 'Weight', 'g', 'CON', 365, 'Live resin, rosin, shatter, badder.'],
  ['Vape Cartridge', 'Vape Cartridge (weight - each)', 'Count', 'units', 'VAP', 365, '0.5 g and 1 g 510-thread cartridges and all-in-ones.'],
  ['Edible', 'Edible (weight - each)', 'Count', 'units', 'EDB', 270, 'Gummies, chocolates, baked goods; 10 mg THC per serving max.'],
  ['Tincture', 'Tincture (volume - each)', 'Volume', 'ml', 'TNC', 540, 'Oil-based sublingual tinctures, 30 ml bottles.'],
  ['Topical', 'Topical (weight - each)', 'Count', 'units', 'TOP', 540, 'Balms, lotions and transdermal patches.'],
  ['Seeds', 'Seeds', 'Count', 'units', 'SED', 730, 'Feminized and regular seeds, sold per pack.'],
  ['Clones', 'Clone - Plant', 'Count', 'units', 'CLN', 21, 'Rooted immature plants from tagged mothers.'],
]

/** State taxes [name, type, rate %, flat $, basis, remit by us] (approximate published rates). */
const STATE_TAX: Record<string, Array<[string, string, number, number, string]>> = {
  CA: [['Cannabis Excise Tax', 'Excise', 15, 0, 'Gross receipts'], ['State Sales & Use Tax', 'Sales', 7.25, 0, 'Retail price'], ['Cultivation Tax (suspended 7/2022)', 'Cultivation', 0, 0, 'Per ounce (flower)']],
  CO: [['Retail Marijuana Excise Tax', 'Excise', 15, 0, 'Average market rate'], ['Retail Marijuana Sales Tax', 'Sales', 15, 0, 'Retail price'], ['State Sales Tax (medical)', 'Sales', 2.9, 0, 'Retail price']],
  AK: [['Marijuana Tax - Mature Bud', 'Cultivation', 0, 50, 'Per ounce (flower)'], ['Marijuana Tax - Immature Bud', 'Cultivation', 0, 25, 'Per ounce (flower)'], ['Marijuana Tax - Trim', 'Cultivation', 0, 15, 'Per ounce (flower)']],
  DC: [['Medical Cannabis Sales Tax', 'Sales', 6, 0, 'Retail price'], ['General Sales Tax', 'Sales', 6, 0, 'Retail price'], ['Gross Receipts Fee', 'Local Business', 1, 0, 'Gross receipts']],
  LA: [['Therapeutic Marijuana Tax', 'Excise', 7, 0, 'Gross receipts'], ['State Sales Tax', 'Sales', 5, 0, 'Retail price'], ['Parish Sales Tax', 'Sales', 5, 0, 'Retail price']],
  ME: [['Adult-Use Sales Tax', 'Sales', 10, 0, 'Retail price'], ['Excise Tax - Flower', 'Excise', 0, 335, 'Per pound (flower)'], ['Excise Tax - Trim', 'Excise', 0, 94, 'Per pound (flower)']],
  MA: [['Marijuana Excise Tax', 'Excise', 10.75, 0, 'Retail price'], ['State Sales Tax', 'Sales', 6.25, 0, 'Retail price'], ['Local Option Tax', 'Local Business', 3, 0, 'Retail price']],
  MD: [['Cannabis Sales Tax', 'Sales', 12, 0, 'Retail price'], ['Medical Cannabis (exempt)', 'Sales', 0, 0, 'Retail price'], ['Local Host Fee', 'Local Business', 1, 0, 'Gross receipts']],
  MI: [['Adult-Use Excise Tax', 'Excise', 10, 0, 'Retail price'], ['State Sales Tax', 'Sales', 6, 0, 'Retail price'], ['Wholesale Marijuana Tax', 'Wholesale', 24, 0, 'Wholesale price']],
  MO: [['Adult-Use Marijuana Tax', 'Excise', 6, 0, 'Retail price'], ['State Sales Tax', 'Sales', 4.225, 0, 'Retail price'], ['Medical Marijuana Tax', 'Excise', 4, 0, 'Retail price']],
  MT: [['Adult-Use Marijuana Tax', 'Excise', 20, 0, 'Retail price'], ['Medical Marijuana Tax', 'Excise', 4, 0, 'Retail price'], ['Local Option Tax', 'Local Business', 3, 0, 'Retail price']],
  NV: [['Wholesale Excise Tax', 'Wholesale', 15, 0, 'Average market rate'], ['Retail Excise Tax', 'Excise', 10, 0, 'Retail price'], ['State Sales Tax', 'Sales', 6.85, 0, 'Retail price']],
  OH: [['Adult-Use Excise Tax', 'Excise', 10, 0, 'Retail price'], ['State Sales Tax', 'Sales', 5.75, 0, 'Retail price'], ['Host Community Tax', 'Local Business', 3.6, 0, 'Retail price']],
  OK: [['Medical Marijuana Excise Tax', 'Excise', 7, 0, 'Retail price'], ['State Sales Tax', 'Sales', 4.5, 0, 'Retail price'], ['Grower Wholesale Reporting', 'Wholesale', 0, 0, 'Wholesale price']],
  OR: [['Marijuana Retail Tax', 'Excise', 17, 0, 'Retail price'], ['Local Marijuana Tax', 'Local Business', 3, 0, 'Retail price'], ['Medical (OMMP) exempt', 'Sales', 0, 0, 'Retail price']],
  WV: [['Medical Cannabis Privilege Tax', 'Excise', 10, 0, 'Gross receipts'], ['State Sales Tax', 'Sales', 6, 0, 'Retail price'], ['Municipal Sales Tax', 'Sales', 1, 0, 'Retail price']],
}

function seedSettings(ctx: SeedCtx, h: H): Record<string, SeedDoc[]> {
  const id = ctx.id
  const kind = h.kind
  const cul = kind === 'cultivation'
  const out: Record<string, SeedDoc[]> = {}

  out.set_strains = STRAINS.map(([name, type, thc, cbd, genetics, breeder, flower_weeks, terpenes], i) => ({
    _id: id('set_strains', i), name, type, thc, cbd, genetics, breeder, flower_weeks, terpenes, metrc_name: name, added: h.past(900, 90),
    notes: cbd > 5 ? 'High-CBD cultivar; kept for the medical menu.' : i === 6 ? 'Top seller; keep 2 mothers minimum.' : '',
  }))

  out.set_rooms = ROOMS[kind].map(([name, room_type, capacity, canopy_sqft, location_type, lighting, hvac], i) => ({
    _id: id('set_rooms', i), name, room_type, capacity, canopy_sqft, metrc_location: `${ctx.facility.license} - ${name}`, location_type, lighting, hvac,
    camera: 'yes', limited_access: 'yes', notes: name === 'Vault' || name === 'Main Vault' ? 'Dual-control access; inventory counted weekly.' : '',
    ...(i === 9 ? { ed: 'no', delete: 'no' } : {}),
  }))

  out.set_clients = CLIENTS.map(([name, client_type], i) => {
    const place = i === 0 ? h.home : h.place()
    const domain = h.domainOf(name)
    const retail = client_type.includes('Dispensary') || client_type === 'Delivery' || client_type === 'Distributor'
    return {
      _id: id('set_clients', i), name, client_type, license: h.license(client_type), license_exp: i === 17 ? h.past(60, 10) : h.future(20, 400),
      address: h.street(), city: place.city, state: h.state, zip: place.zip, phone: h.phone(place.area),
      email: `${client_type === 'Testing Lab' ? 'intake' : retail ? 'purchasing' : 'orders'}@${domain}`,
      tax_exempt: retail ? 'yes' : 'no', resale_cert: retail ? `SR ${h.state} ${h.digits(3)}-${h.digits(6)}` : '',
      terms: client_type === 'Testing Lab' ? 'Net 30' : i % 4 === 0 ? 'Net 30' : i % 4 === 1 ? 'COD' : i % 4 === 2 ? 'Net 15' : 'Net 7',
      credit_limit: client_type === 'Testing Lab' ? 0 : h.int(2, 20) * 5000,
      notes: i === 17 ? 'Store closed; license expired. Do not ship.' : i === 4 ? 'Medical only: confirm patient-designated products.' : '',
      ...(i === 17 ? { IsUsed: 'no' } : {}),
    }
  })

  const contactNames = new Set<string>()
  out.set_contacts = Array.from({ length: 25 }, (_, i) => {
    const c = i < 20 ? i : (i * 3) % 20
    let name = h.person()
    while (contactNames.has(name)) name = h.person()
    contactNames.add(name)
    const client = out.set_clients[c]
    const type = String(client.client_type)
    const role = i >= 20 ? h.pick(['Accounts Payable', 'Receiving Lead', 'Compliance Officer']) : type === 'Testing Lab' ? 'Lab Director' : h.pick(['Purchasing Manager', 'Head Buyer', 'General Manager', 'Owner', 'Inventory Manager', 'Store Manager'])
    const area = String(client.phone).slice(1, 4)
    return {
      _id: id('set_contacts', i), name, role, client: id('set_clients', c), phone: h.phone(area), mobile: h.phone(area),
      email: h.emailOf(name, String(client.email).split('@')[1]), preferred: h.pick(L.contactPref), last_contacted: h.past(90),
      notes: i === 3 ? 'Prefers texts before 10am.' : '', ...(c === 17 ? { IsUsed: 'no' } : {}),
    }
  })

  out.set_prodtypes = PRODTYPES.map(([name, metrc_category, uom_type, unit, sku_prefix, shelf_life_days, description], i) => ({
    _id: id('set_prodtypes', i), name, metrc_category, uom_type, unit, sku_prefix, shelf_life_days, description,
    requires_testing: name === 'Clones' || name === 'Seeds' ? 'no' : 'yes', requires_strain: ['Edible', 'Topical', 'Tincture'].includes(name) ? 'no' : 'yes',
    ed: 'no', delete: 'no',
  }))

  const vehicles: Array<[string, string, number]> = [
    ['Van 1', 'Ford Transit 250', 2022], ['Van 2', 'Ford Transit 250', 2021], ['Van 3', 'Mercedes-Benz Sprinter 2500', 2023],
    ['Reefer Van', 'Ram ProMaster 2500 (refrigerated)', 2022], ['Box Truck', 'Isuzu NPR-HD', 2020], ['Sample Car', 'Toyota Camry Hybrid', 2021],
  ]
  const drivers = cul ? ['Hector Salazar', 'Miguel Herrera', 'Dana Whitfield', 'Brooke Tanaka', 'Sam Rivera', 'Maria Lopez'] : ['Tomas Novak', 'Gabriela Ruiz', 'Isaac Bloom', 'Whitney Moore', 'Chris Patel', 'Renee Carter']
  out.set_transport = vehicles.map(([name, make_model, year], i) => ({
    _id: id('set_transport', i), name: `${name} - ${make_model.split(' (')[0]}`, make_model, year, plate: h.plate(),
    vin: `1FT${h.digits(3)}${String.fromCharCode(65 + i)}${h.digits(2)}KA${h.digits(6)}`, driver: drivers[i], driver_license: `${h.state}${h.digits(8)}`,
    driver_phone: h.phone(h.home.area), insurance_exp: i === 4 ? h.future(5, 20) : h.future(40, 330), registration_exp: h.future(30, 360),
    status: i === 4 ? 'In Service' : i === 5 && cul ? 'Out of Service' : 'Active', gps: 'yes', alarm: i === 5 ? 'no' : 'yes',
    ...(i === 5 && cul ? { IsUsed: 'no' } : {}),
  }))

  const stateTax = STATE_TAX[h.state] ?? STATE_TAX.CA
  const agency = AGENCY[h.state] ?? 'State Department of Revenue'
  const taxes: Array<Record<string, unknown>> = stateTax.map(([name, tax_type, rate, flat_rate, basis]) => ({
    name, jurisdiction: h.state, level: 'State', tax_type, rate, flat_rate, basis, authority: tax_type === 'Sales' ? 'Department of Revenue' : agency,
    remit_by_us: basis === 'Retail price' ? 'no' : 'yes', ...(rate === 0 && flat_rate === 0 ? { IsUsed: 'no' } : {}),
  }))
  for (const p of h.places) {
    if (taxes.length >= 10) break
    taxes.push({
      name: `${p.city} Cannabis Business Tax`, jurisdiction: `${p.city}, ${h.state}`, level: 'City', tax_type: 'Local Business', rate: h.int(4, 20) / 2, flat_rate: 0,
      basis: 'Gross receipts', authority: `City of ${p.city} Finance Dept.`, remit_by_us: p === h.home ? 'yes' : 'no',
    })
  }
  for (const p of h.places) {
    if (taxes.length >= 10) break
    taxes.push({
      name: `${p.county} County Cannabis Tax`, jurisdiction: `${p.county} County, ${h.state}`, level: 'County', tax_type: cul ? 'Cultivation' : 'Local Business',
      rate: cul ? 0 : h.int(2, 8) / 2, flat_rate: cul ? h.int(2, 6) : 0, basis: cul ? 'Per ounce (flower)' : 'Gross receipts', authority: `${p.county} County Treasurer-Tax Collector`, remit_by_us: p === h.home ? 'yes' : 'no',
    })
  }
  out.set_tax = taxes.slice(0, 10).map((t, i) => ({ _id: id('set_tax', i), ...t, effective: h.past(1500, 120) }))

  out.set_relations = Array.from({ length: 15 }, (_, i) => {
    const c = i
    const type = CLIENTS[c][1]
    const relation = type === 'Testing Lab' ? 'Testing Lab' : type === 'Distributor' ? 'Transporter' : type === 'Cultivator' ? (cul ? 'Customer & Supplier' : 'Supplier') : type === 'Processor' ? (cul ? 'Processor (toll)' : 'Supplier') : 'Customer'
    return {
      _id: id('set_relations', i), client: id('set_clients', c), relation, contact: id('set_contacts', c), account_manager: h.staff[i % 3 === 0 ? 3 : 1],
      since: h.past(1300, 30), terms: String(out.set_clients[c].terms), ytd_volume: relation === 'Testing Lab' ? h.int(5, 30) * 1000 : h.int(10, 400) * 1000,
      preferred: i % 4 === 0 ? 'yes' : 'no', notes: '',
    }
  })

  const lic = ctx.facility.license
  const mylic: Array<[string, string, string, string]> = cul
    ? [['Adult-Use Cultivation (Indoor, Medium)', lic, 'Adult-Use Cultivation', 'Active'], ['Medical Cultivation', lic.replace(/^([A-Z]+)/, 'M$1'), 'Medical Cultivation', 'Active'], ['Nursery', h.license('Cultivator'), 'Nursery', 'Renewal Pending'], ['Provisional Cultivation (superseded)', `P-${lic}`, 'Adult-Use Cultivation', 'Expired']]
    : [['Distribution (Adult-Use)', lic, 'Distribution', 'Active'], ['Transporter', h.license('Distributor'), 'Transporter', 'Active'], ['Wholesale', h.license('Distributor'), 'Wholesale', 'Renewal Pending'], ['Provisional Distribution (superseded)', `P-${lic}`, 'Distribution', 'Expired']]
  out.set_mylic = mylic.map(([name, license_number, license_type, status], i) => {
    const issued = status === 'Expired' ? h.past(1400, 800) : h.past(700, 200)
    return {
      _id: id('set_mylic', i), name, state: ctx.facility.state, license_number, license_type, agency, issued,
      expiry: status === 'Expired' ? h.plus(issued, 365) : status === 'Renewal Pending' ? h.future(10, 40) : h.future(90, 330), status,
      active: status === 'Expired' ? 'no' : 'yes', metrc_linked: i === 0 ? 'yes' : i === 1 ? 'yes' : 'no', canopy_limit: cul && i < 3 ? (i === 2 ? 2000 : 22000) : 0,
      certificate: fileRef(ctx.facility.org, 'licenses', `${license_number.replace(/[^A-Za-z0-9-]/g, '')}.pdf`),
      ...(status === 'Expired' ? { IsUsed: 'no' } : { ed: 'no', delete: 'no' }),
    }
  })

  const groups: Array<[string, string, string[], string]> = [
    ['Managers', 'Facility leadership and approvers', ['Cultivation', 'Dashboards', 'Distribution', 'Finance', 'Metrc', 'CRM', 'Operations', 'Settings'], 'Day'],
    [cul ? 'Growers' : 'Warehouse', cul ? 'Cultivation staff' : 'Receiving, packaging and picking', cul ? ['Cultivation', 'Dashboards', 'Tasks'] : ['Distribution', 'Tasks'], 'Day'],
    ['Compliance', 'METRC reconciliation, waste, audits', ['Metrc', 'Cultivation', 'Distribution', 'Dashboards', 'Other'], 'Day'],
    [cul ? 'Post-Harvest' : 'Drivers', cul ? 'Harvest, dry, trim and packaging' : 'Transport and manifests', cul ? ['Cultivation', 'Tasks'] : ['Distribution', 'Tasks'], cul ? 'Day' : 'Rotating'],
    ['Sales', 'Accounts, CRM and orders', ['CRM', 'Distribution', 'Finance'], 'Day'],
    ['Finance', 'Invoices, payments and taxes', ['Finance', 'Dashboards'], 'Day'],
    ['Security', 'Guards and camera operators', ['Other'], 'Rotating'],
    ['Maintenance', 'Facilities and equipment', ['Operations', 'Tasks'], 'Swing'],
  ]
  out.set_groups = groups.map(([name, description, modules, shift], i) => ({
    _id: id('set_groups', i), name, description, lead: h.staff[i % h.staff.length], members: h.int(2, 16), modules, shift,
    email_alias: `${name.toLowerCase().replace(/[^a-z]+/g, '-')}@${h.domain}`,
  }))

  const ints: Array<[string, string]> = cul
    ? [['Greenleaf Processing Kitchen', 'Processing Kitchen'], ['Greenleaf Retail - Downtown', 'Retail Store'], ['Greenleaf Outdoor Farm', 'Sister Facility'], ['R&D Pheno Hunt', 'R&D'], ['Trade Samples', 'Marketing Samples'], ['Employee Education Samples', 'Marketing Samples']]
    : [['Harbor Warehouse North', 'Sister Facility'], ['Harbor Retail - Main St', 'Retail Store'], ['Harbor Infusion Kitchen', 'Processing Kitchen'], ['Brand Sampling Program', 'Marketing Samples'], ['QA Retain Library', 'R&D'], ['Budtender Education Kits', 'Marketing Samples']]
  out.set_int_customers = ints.map(([name, int_type], i) => {
    const p = h.place()
    const contact = h.staff[(i + 2) % h.staff.length]
    const transfer = int_type === 'Sister Facility' || int_type === 'Retail Store' || int_type === 'Processing Kitchen'
    return {
      _id: id('set_int_customers', i), name, int_type, license: transfer ? h.license(int_type === 'Retail Store' ? 'Dispensary' : int_type === 'Processing Kitchen' ? 'Processor' : 'Cultivator') : '',
      address: transfer ? `${h.street()}, ${p.city}, ${h.state} ${p.zip}` : 'On site', contact, phone: h.phone(h.home.area),
      metrc_transfer: transfer ? 'yes' : 'no', billable: int_type === 'Retail Store' ? 'yes' : 'no', notes: int_type === 'Marketing Samples' ? 'Log as trade samples; limit 1 oz per month per employee.' : '',
    }
  })

  const printers: Array<[string, string, string, string, string, number, number]> = cul
    ? [['Clone Room Tag Printer', 'Zebra ZD421', 'mtag', 'plant_tag_rfid', '1" x 3"', 300, 1], ['Flower Room Tag Printer', 'Zebra ZD621', 'tag', 'plant_tag_rfid', '1" x 3"', 300, 5], ['Vault Package Labels', 'Zebra ZT411', 'package_tag', 'package_label_4x2', '4" x 2"', 300, 9],
      ['Trim Room Labels', 'Zebra ZD421', 'label', 'retail_label_2x4', '2" x 4"', 203, 8], ['Front Desk Badges', 'Brother QL-820NWB', 'label', 'visitor_badge', '2" x 4"', 300, 9], ['Shipping Manifests', 'Zebra ZT231', 'manifest_no', 'manifest_4x6', '4" x 6"', 203, 9]]
    : [['Receiving Labels', 'Zebra ZD421', 'package_tag', 'package_label_4x2', '4" x 2"', 300, 0], ['Packaging Line 1', 'Zebra ZT411', 'label', 'retail_label_2x4', '2" x 4"', 300, 3], ['Pre-Roll Labels', 'Zebra ZD621', 'sku', 'preroll_tube_1x3', '1" x 3"', 300, 4],
      ['Vault Labels', 'Zebra ZD421', 'package_tag', 'package_label_4x2', '4" x 2"', 203, 2], ['Shipping Manifests', 'Zebra ZT231', 'manifest_no', 'manifest_4x6', '4" x 6"', 203, 7], ['Front Desk Badges', 'DYMO LabelWriter 5XL', 'label', 'visitor_badge', '2" x 4"', 300, 0]]
  out.set_printers = printers.map(([name, model, field, template, label_size, dpi, room], i) => ({
    _id: id('set_printers', i), name, model, deviceid: `prt-${ctx.facility.org.slice(0, 3)}-${String(i + 1).padStart(2, '0')}`, field, template,
    zpl: model.startsWith('Zebra') ? 'yes' : 'no', label_size, dpi, room: id('set_rooms', room), ip: `10.0.${cul ? 20 : 30}.${40 + i}`,
    online: i === 3 ? 'no' : 'yes', last_seen: i === 3 ? h.past(9, 2) : h.past(0.1),
  }))

  const roles: Array<[string, string, string[], string, string, string]> = [
    ['Admin', 'Full access to this facility', [...L.modules], 'yes', 'yes', 'yes'],
    ['Cultivation Manager', 'Runs the grow; approves harvests and waste', ['Cultivation', 'Dashboards', 'Tasks', 'Metrc', 'Settings'], 'yes', 'yes', 'yes'],
    ['Grower', 'Plants, clones, tasks on the kiosk', ['Cultivation', 'Dashboards', 'Tasks'], 'yes', 'no', 'no'],
    ['Trimmer', 'Trim and processing entries', ['Cultivation', 'Tasks'], 'yes', 'no', 'no'],
    ['Compliance Officer', 'METRC reconciliation, waste, audits', ['Metrc', 'Cultivation', 'Distribution', 'Dashboards', 'Finance', 'Other'], 'yes', 'no', 'yes'],
    ['Inventory Manager', 'Packages, bins, transfers', ['Distribution', 'Cultivation', 'Metrc'], 'yes', 'yes', 'yes'],
    ['Sales Rep', 'Clients, CRM and orders', ['CRM', 'Distribution'], 'yes', 'no', 'no'],
    ['Driver', 'Manifests and deliveries', ['Distribution'], 'no', 'no', 'no'],
    ['Finance', 'Payments, receivables, tax', ['Finance', 'Dashboards'], 'yes', 'no', 'yes'],
    ['Read Only', 'Auditors and owners', ['Dashboards', 'Cultivation', 'Distribution', 'Finance'], 'no', 'no', 'no'],
  ]
  out.set_roles = roles.map(([name, description, modules, can_edit, can_delete, can_approve], i) => ({
    _id: id('set_roles', i), name, description, modules, can_edit, can_delete, can_approve,
    users: i === 0 ? 2 : h.int(cul === (i < 4) ? 2 : 0, cul === (i < 4) ? 12 : 3), ...(i === 0 ? { ed: 'no', delete: 'no' } : {}),
  }))
  return out
}

export function seedRecords(ctx: SeedCtx): SeedRecords {
  if (ctx.facility.kind === 'lobby') return {}
  const h = helpers(ctx)
  const settings = seedSettings(ctx, h)
  const roomNames = settings.set_rooms.map((r) => String(r.name))
  const clientNames = settings.set_clients.map((r) => String(r.name))
  return {
    ...settings,
    ...seedCrm(ctx, h),
    ...seedOther(ctx, h, roomNames, clientNames),
    ...seedOps(ctx, h, roomNames),
  }
}
