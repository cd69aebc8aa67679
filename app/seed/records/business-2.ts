/**
 * Seed records of the "business" group, part 2: shared pools and helpers (names, places, phones,
 * licenses) and the CRM tables. Deterministic: everything comes from ctx.rng and ctx.now.
 */
import type { SeedCtx, SeedDoc } from '../kit'
import { L } from '../schemas/business'

export interface Place { city: string; zip: string; area: string; county: string }

/** A few real cities per SPEC §5 state, with ZIP, area code and county. */
const PLACES: Record<string, Array<[string, string, string, string]>> = {
  CA: [['Salinas', '93901', '831', 'Monterey'], ['Oakland', '94607', '510', 'Alameda'], ['Los Angeles', '90021', '213', 'Los Angeles'], ['Sacramento', '95811', '916', 'Sacramento'], ['San Diego', '92101', '619', 'San Diego'], ['Santa Rosa', '95401', '707', 'Sonoma'], ['San Jose', '95112', '408', 'Santa Clara']],
  CO: [['Denver', '80216', '303', 'Denver'], ['Boulder', '80301', '303', 'Boulder'], ['Colorado Springs', '80903', '719', 'El Paso'], ['Pueblo', '81003', '719', 'Pueblo'], ['Fort Collins', '80524', '970', 'Larimer'], ['Aurora', '80010', '720', 'Arapahoe'], ['Grand Junction', '81501', '970', 'Mesa']],
  AK: [['Anchorage', '99501', '907', 'Anchorage'], ['Fairbanks', '99701', '907', 'Fairbanks North Star'], ['Juneau', '99801', '907', 'Juneau'], ['Wasilla', '99654', '907', 'Matanuska-Susitna'], ['Kenai', '99611', '907', 'Kenai Peninsula']],
  DC: [['Washington', '20001', '202', 'District of Columbia'], ['Washington', '20002', '202', 'District of Columbia'], ['Washington', '20009', '202', 'District of Columbia'], ['Washington', '20018', '202', 'District of Columbia'], ['Washington', '20032', '202', 'District of Columbia']],
  LA: [['New Orleans', '70112', '504', 'Orleans'], ['Baton Rouge', '70802', '225', 'East Baton Rouge'], ['Lafayette', '70501', '337', 'Lafayette'], ['Shreveport', '71101', '318', 'Caddo'], ['Lake Charles', '70601', '337', 'Calcasieu']],
  ME: [['Portland', '04101', '207', 'Cumberland'], ['Bangor', '04401', '207', 'Penobscot'], ['Lewiston', '04240', '207', 'Androscoggin'], ['Augusta', '04330', '207', 'Kennebec'], ['Biddeford', '04005', '207', 'York']],
  MA: [['Boston', '02118', '617', 'Suffolk'], ['Worcester', '01608', '508', 'Worcester'], ['Springfield', '01103', '413', 'Hampden'], ['Lowell', '01852', '978', 'Middlesex'], ['Northampton', '01060', '413', 'Hampshire'], ['Fall River', '02720', '508', 'Bristol']],
  MD: [['Baltimore', '21201', '410', 'Baltimore City'], ['Silver Spring', '20910', '301', 'Montgomery'], ['Frederick', '21701', '301', 'Frederick'], ['Annapolis', '21401', '410', 'Anne Arundel'], ['Hagerstown', '21740', '301', 'Washington']],
  MI: [['Detroit', '48207', '313', 'Wayne'], ['Lansing', '48906', '517', 'Ingham'], ['Grand Rapids', '49503', '616', 'Kent'], ['Ann Arbor', '48104', '734', 'Washtenaw'], ['Kalamazoo', '49007', '269', 'Kalamazoo'], ['Bay City', '48708', '989', 'Bay']],
  MO: [['St. Louis', '63103', '314', 'St. Louis City'], ['Kansas City', '64108', '816', 'Jackson'], ['Springfield', '65806', '417', 'Greene'], ['Columbia', '65201', '573', 'Boone'], ['Joplin', '64801', '417', 'Jasper']],
  MT: [['Missoula', '59801', '406', 'Missoula'], ['Bozeman', '59715', '406', 'Gallatin'], ['Billings', '59101', '406', 'Yellowstone'], ['Helena', '59601', '406', 'Lewis and Clark'], ['Great Falls', '59401', '406', 'Cascade']],
  NV: [['Las Vegas', '89102', '702', 'Clark'], ['Henderson', '89014', '702', 'Clark'], ['Reno', '89502', '775', 'Washoe'], ['Sparks', '89431', '775', 'Washoe'], ['Carson City', '89701', '775', 'Carson City']],
  OH: [['Columbus', '43215', '614', 'Franklin'], ['Cleveland', '44113', '216', 'Cuyahoga'], ['Cincinnati', '45202', '513', 'Hamilton'], ['Toledo', '43604', '419', 'Lucas'], ['Akron', '44308', '330', 'Summit']],
  OK: [['Oklahoma City', '73102', '405', 'Oklahoma'], ['Tulsa', '74103', '918', 'Tulsa'], ['Norman', '73069', '405', 'Cleveland'], ['Edmond', '73034', '405', 'Oklahoma'], ['Lawton', '73501', '580', 'Comanche']],
  OR: [['Portland', '97214', '503', 'Multnomah'], ['Eugene', '97401', '541', 'Lane'], ['Bend', '97701', '541', 'Deschutes'], ['Salem', '97301', '503', 'Marion'], ['Medford', '97501', '541', 'Jackson']],
  WV: [['Charleston', '25301', '304', 'Kanawha'], ['Morgantown', '26505', '304', 'Monongalia'], ['Huntington', '25701', '304', 'Cabell'], ['Wheeling', '26003', '304', 'Ohio'], ['Parkersburg', '26101', '304', 'Wood']],
}

const FIRST = ['James', 'Maria', 'David', 'Jennifer', 'Michael', 'Linda', 'Daniel', 'Sarah', 'Carlos', 'Jessica', 'Kevin', 'Ashley', 'Brian', 'Emily', 'Jason', 'Megan', 'Tyler', 'Rachel', 'Marcus', 'Nicole', 'Andre', 'Hannah', 'Luis', 'Priya', 'Derek', 'Olivia', 'Ryan', 'Sofia', 'Trevor', 'Keisha', 'Ethan', 'Vanessa', 'Nathan', 'Brianna', 'Omar', 'Courtney', 'Dustin', 'Alicia', 'Wesley', 'Monica', 'Grant', 'Tanya', 'Cody', 'Lauren', 'Jamal', 'Erin', 'Victor', 'Kayla']
const LAST = ['Anderson', 'Ramirez', 'Thompson', 'Nguyen', 'Garcia', 'Miller', 'Brooks', 'Kim', 'Hernandez', 'Walsh', 'Bennett', 'Castillo', 'Foster', 'Shah', 'Murphy', 'Ortiz', 'Reed', 'Coleman', 'Jensen', 'Alvarez', 'Price', 'Sullivan', 'Torres', 'Chen', 'Hughes', 'Flores', 'Barnes', 'Patel', 'Dawson', 'Ward', 'Fischer', 'Russo', 'Kowalski', 'Jackson', 'Okafor', 'Larsen', 'Mendoza', 'Byrne', 'Holt', 'Vasquez']
const STREETS = ['Industrial Way', 'Commerce Dr', 'Main St', 'Harbor Blvd', 'Market St', 'Oak Ave', 'Railroad Ave', 'Enterprise Pkwy', 'Broadway', 'Warehouse Rd', 'Pine St', 'Airport Rd', 'Center St', 'Riverside Dr', 'Front St', 'Elm St', 'Park Ave', 'Mill St']

/** Facility staff: the demo users first (core.ts), then a few more. */
const STAFF: Record<'cultivation' | 'distribution', string[]> = {
  cultivation: ['Alex Morgan', 'Maria Lopez', 'Jordan Lee', 'Sam Rivera', 'Dana Whitfield', 'Hector Salazar', 'Brooke Tanaka', 'Miguel Herrera'],
  distribution: ['Alex Morgan', 'Chris Patel', 'Jordan Lee', 'Renee Carter', 'Tomas Novak', 'Gabriela Ruiz', 'Isaac Bloom', 'Whitney Moore'],
}

export type Kind = 'cultivation' | 'distribution'

export function helpers(ctx: SeedCtx) {
  const r = ctx.rng
  const kind = ctx.facility.kind as Kind
  const state = PLACES[ctx.facility.state] ? ctx.facility.state : 'CA'
  const places: Place[] = PLACES[state].map(([city, zip, area, county]) => ({ city, zip, area, county }))
  const day = 86_400_000
  const h = {
    kind,
    state,
    places,
    staff: STAFF[kind],
    domain: `${ctx.facility.org}.demo`,
    home: places[0],
    pick: r.pick,
    int: r.int,
    person: () => `${r.pick(FIRST)} ${r.pick(LAST)}`,
    place: () => r.pick(places),
    street: () => `${r.int(100, 9899)} ${r.pick(STREETS)}`,
    phone: (area?: string) => `(${area ?? r.pick(places).area}) 555-01${String(r.int(0, 99)).padStart(2, '0')}`,
    emailOf: (name: string, domain: string) => `${name.toLowerCase().replace(/[^a-z ]/g, '').trim().replace(/\s+/g, '.')}@${domain}`,
    domainOf: (company: string) => {
      const words = company.toLowerCase().replace(/[^a-z0-9 ]/g, ' ').split(/\s+/).filter((w) => w && !['the', 'co', 'inc', 'llc', 'and'].includes(w))
      let d = words[0] ?? 'example'
      for (const w of words.slice(1)) if ((d + w).length <= 20) d += w; else break
      return `${d}.com`
    },
    /** the same day as `iso`, moved to a local (facility time zone) hour with random minutes */
    atLocalHour: (iso: string, hour: number) => {
      const t = Date.parse(iso)
      let local = hour
      try {
        local = Number(new Intl.DateTimeFormat('en-US', { timeZone: ctx.facility.timezone, hour: 'numeric', hourCycle: 'h23' }).format(new Date(t)))
      } catch { /* unknown zone: keep UTC */ }
      const d = new Date(t + (hour - local) * 3_600_000)
      d.setUTCMinutes(r.int(0, 59), r.int(0, 59), 0)
      return d.toISOString()
    },
    staffer: () => r.pick(STAFF[kind]),
    staffEmail: (name: string) => h.emailOf(name, `${ctx.facility.org}.demo`),
    past: (daysBack: number, minDaysBack = 0) => r.pastDate(daysBack, minDaysBack),
    future: (minDays: number, maxDays: number) => new Date(ctx.now.getTime() + (minDays + r.next() * (maxDays - minDays)) * day).toISOString(),
    /** a date relative to another ISO date, in days (fractions allowed) */
    plus: (iso: string, days: number) => new Date(Date.parse(iso) + days * day).toISOString(),
    yn: (p: number) => (r.chance(p) ? 'yes' : 'no'),
    /** IsUsed:'no' on about p of the records */
    active: (p = 0.07): Record<string, string> => (r.chance(p) ? { IsUsed: 'no' } : {}),
    /** a licence plate, or '' for about a third of visitors who came on foot or by rideshare */
    plate: (p = 1) => (r.chance(p) ? `${r.int(1, 9)}${String.fromCharCode(65 + r.int(0, 25), 65 + r.int(0, 25), 65 + r.int(0, 25))}${r.int(100, 999)}` : ''),
    digits: (n: number) => Array.from({ length: n }, () => r.int(0, 9)).join(''),
    /** a plausible state license number for a licensee type */
    license: (type: string) => licenseFor(state, type, () => h.digits(9)),
  }
  return h
}
export type H = ReturnType<typeof helpers>

function licenseFor(state: string, type: string, d: () => string): string {
  const n = d()
  if (state === 'CA') {
    const p: Record<string, string> = { Dispensary: 'C10', 'Medical Dispensary': 'C10', Distributor: 'C11', Processor: 'CDPH', Cultivator: 'CCL', Microbusiness: 'C12', 'Testing Lab': 'C8', Delivery: 'C9' }
    return p[type] === 'CDPH' ? `CDPH-1${n.slice(0, 7)}` : p[type] === 'CCL' ? `CCL2${n[0]}-000${n.slice(1, 5)}` : `${p[type] ?? 'C10'}-000${n.slice(0, 4)}-LIC`
  }
  if (state === 'CO') {
    const p: Record<string, string> = { Dispensary: '402R', 'Medical Dispensary': '402', Distributor: '4T', Processor: '404R', Cultivator: '403R', Microbusiness: '403R', 'Testing Lab': '405R', Delivery: '402R' }
    return `${p[type] ?? '402R'}-00${n.slice(0, 3)}`
  }
  if (state === 'MI') {
    const p: Record<string, string> = { Dispensary: 'AU-R', 'Medical Dispensary': 'PC', Distributor: 'AU-ST', Processor: 'AU-P', Cultivator: 'AU-G-C', Microbusiness: 'AU-MB', 'Testing Lab': 'AU-SC', Delivery: 'AU-R' }
    return `${p[type] ?? 'AU-R'}-000${n.slice(0, 3)}`
  }
  if (state === 'OK') {
    const p: Record<string, string> = { Dispensary: 'DAAA', 'Medical Dispensary': 'DAAA', Distributor: 'TAAA', Processor: 'PAAA', Cultivator: 'GAAA', Microbusiness: 'GAAA', 'Testing Lab': 'LAAA', Delivery: 'DAAA' }
    return `${p[type] ?? 'DAAA'}-${n.slice(0, 4)}-${n.slice(4, 8)}`
  }
  const code: Record<string, string> = { Dispensary: 'RD', 'Medical Dispensary': 'MD', Distributor: 'DS', Processor: 'PR', Cultivator: 'CU', Microbusiness: 'MB', 'Testing Lab': 'TL', Delivery: 'DL' }
  return `${state}-${code[type] ?? 'RD'}-${n.slice(0, 6)}`
}

/** The CRM tables. */
export function seedCrm(ctx: SeedCtx, h: H): Record<string, SeedDoc[]> {
  const id = ctx.id
  const cul = h.kind === 'cultivation'
  const out: Record<string, SeedDoc[]> = {}

  // Release notes are the platform's own (app/areas/release-notes seeds them under the platform
  // organisation). Their 14 dates were drawn here: still drawn, so every record after them stays
  // the same demo data it was.
  for (let i = 0; i < 14; i++) h.past(30 + (13 - i) * 38, 20 + (13 - i) * 38)

  // Campaigns
  const campNames = cul
    ? ['Fall Harvest Menu Drop', 'Wedding Cake Restock Alert', 'Budtender Education Night', 'Holiday Pre-Roll Bundles', '4/20 Wholesale Specials', 'Fresh Frozen for Extractors', 'New Strain Launch: Zkittlez', 'Q1 Price Sheet', 'Green Friday Promo', 'Dispensary Buyer Summit Booth', 'Small Batch Reserve Series', 'Summer Outdoor Harvest Preview', 'Sustainability Story Series', 'Re-engagement: Dormant Accounts', 'Retailer Loyalty Program Launch']
    : ['Holiday Brand Portfolio', 'New Brand Onboarding: Kiva Style Edibles', 'Same-Day Delivery Launch', '4/20 Pre-Order Window', 'Q1 Wholesale Catalog', 'Vape Hardware Recall Notice', 'Green Friday Bundles', 'Retail Buyer Summit Booth', 'Monthly Menu Drop', 'Re-engagement: Dormant Accounts', 'Concentrates Category Push', 'Budtender Training Webinar', 'Summer Beverage Line', 'Payment Terms Update', 'Retailer Loyalty Program Launch']
  out.crm_campaigns = campNames.map((name, i) => {
    const channel = i % 5 === 3 ? 'Trade Show' : i % 4 === 2 ? 'SMS' : i % 7 === 6 ? 'Webinar' : 'Email'
    const start = i < 3 ? h.future(3, 30) : h.past(330, 5)
    const status = i < 2 ? 'Scheduled' : i === 2 ? 'Draft' : Date.parse(start) > ctx.now.getTime() - 14 * 86_400_000 ? 'Running' : h.pick(['Completed', 'Completed', 'Completed', 'Paused'])
    const sent = status === 'Draft' || status === 'Scheduled' ? 0 : channel === 'Trade Show' ? h.int(80, 250) : h.int(300, 2400)
    const opens = channel === 'Email' ? Math.round(sent * h.int(18, 42) / 100) : channel === 'SMS' ? Math.round(sent * 0.9) : Math.round(sent * 0.6)
    return {
      _id: id('crm_campaigns', i), name, channel, status, start, end: h.plus(start, channel === 'Trade Show' ? 3 : h.int(7, 45)),
      audience: h.pick(['All active dispensaries', 'Buyers - adult use', 'Medical accounts', 'Dormant 90+ days', 'Top 25 accounts', 'New prospects', 'Extractors & processors']),
      sent, opens, clicks: Math.round(opens * h.int(5, 25) / 100),
      budget: channel === 'Trade Show' ? h.int(30, 90) * 100 : h.int(2, 30) * 50,
      revenue: sent ? h.int(10, 400) * 100 : 0, owner: h.staffer(), ...(i === 9 ? { IsUsed: 'no' } : {}),
    }
  })

  // Links
  const linkNames = ['Wholesale Menu (live)', 'Price Sheet PDF', 'COA Library', 'Book a Buyer Meeting', 'Strain Guide', 'Budtender Training Signup', 'Order Portal', 'Instagram Profile', 'Leafly Brand Page', 'Weedmaps Listing', 'Sustainability Report', 'Referral Program', 'Holiday Bundle Landing', 'Product Photos (press kit)']
  out.crm_links = linkNames.map((name, i) => {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-$/, '')
    const clicks = h.int(12, 1800)
    return {
      _id: id('crm_links', i), name, url: `https://${h.domain}/${slug}`, short: `https://cnpy.link/${ctx.facility.org.slice(0, 2)}${h.digits(4)}`,
      campaign: id('crm_campaigns', i % campNames.length), clicks, unique_clicks: Math.round(clicks * h.int(55, 90) / 100),
      created: h.past(300, 10), utm: slug.replace(/-/g, '_'), qr: `https://${h.domain}/${slug}?utm_source=qr`, ...h.active(0.05),
    }
  })

  // Templates
  const tpl: Array<[string, string, string, string]> = [
    ['Weekly Menu Drop', 'Email', 'Menu Drop', 'This week\'s fresh drops from {{facility}}'],
    ['Restock Alert', 'Email', 'Promotion', '{{strain}} is back in stock'],
    ['New Account Welcome', 'Email', 'Onboarding', 'Welcome to {{facility}} wholesale'],
    ['Order Follow-up', 'Email', 'Follow-up', 'How did {{order}} land with your customers?'],
    ['Sample Follow-up', 'Email', 'Follow-up', 'Your samples from {{facility}}'],
    ['Monthly Newsletter', 'Email', 'Newsletter', '{{month}} at {{facility}}'],
    ['Event Invite', 'Email', 'Event Invite', 'You are invited: {{event}}'],
    ['Recall / Compliance Notice', 'Email', 'Compliance Notice', 'Important notice about package {{tag}}'],
    ['Delivery Window SMS', 'SMS', 'Follow-up', ''],
    ['Flash Deal SMS', 'SMS', 'Promotion', ''],
    ['License Renewal Reminder', 'Email', 'Compliance Notice', 'Please send your renewed license'],
    ['Price Sheet Update', 'Email', 'Menu Drop', 'Updated wholesale pricing effective {{date}}'],
  ]
  out.crm_templates = tpl.map(([name, channel, category, subject], i) => ({
    _id: id('crm_templates', i), name, channel, category, subject,
    body: channel === 'SMS'
      ? `${ctx.facility.fullName.split(',')[0]}: ${name.includes('Flash') ? 'Today only - 15% off {{product}} for licensed buyers. Reply STOP to opt out.' : 'Your delivery {{manifest}} arrives between {{window}}. Reply STOP to opt out.'}`
      : `<p>Hi {{first_name}},</p><p>${subject.replace(/\{\{|\}\}/g, '')}.</p><p>For licensed cannabis businesses only.</p><p>{{signature}}</p>`,
    owner: h.staffer(), updated: h.past(240, 2), times_used: h.int(0, 60),
  }))

  // Prospects
  const pre = ['Green', 'High Desert', 'Golden', 'Pure', 'Urban', 'Emerald', 'Lucky', 'Mountain', 'Coastal', 'Silver', 'Natural', 'Royal', 'Happy', 'Wild', 'Canyon', 'Liberty', 'Cloud Nine', 'Starbud', 'Harvest', 'Mile High']
  const mid = ['Leaf', 'Roots', 'Bloom', 'Garden', 'Remedy', 'Buds', 'Sprout', 'Trichome', 'Kind', 'Ember']
  const post: Record<string, string[]> = { Dispensary: ['Dispensary', 'Cannabis Co.', 'Wellness'], 'Dispensary Chain': ['Dispensaries', 'Cannabis Group'], 'Delivery Service': ['Delivery'], Processor: ['Extracts', 'Extraction'], Brand: ['Brands'], Distributor: ['Distribution'], Microbusiness: ['Micro Farm'] }
  const seen = new Set<string>()
  out.crm_prospects = Array.from({ length: 60 }, (_, i) => {
    const type = i % 6 === 5 ? (cul ? 'Processor' : 'Brand') : i % 9 === 4 ? 'Dispensary Chain' : i % 11 === 7 ? 'Delivery Service' : i % 13 === 8 ? (cul ? 'Distributor' : 'Microbusiness') : 'Dispensary'
    let company = `${pre[i % pre.length]} ${mid[(i * 3 + Math.floor(i / pre.length)) % mid.length]} ${post[type][i % post[type].length]}`
    if (seen.has(company)) company = `${company} ${h.place().city}`
    seen.add(company)
    const contact = h.person()
    const place = h.place()
    const stage = L.stage[Math.min(L.stage.length - 1, Math.floor(h.int(0, 99) / 15))]
    const closed = stage === 'Won' || stage === 'Lost'
    return {
      _id: id('crm_prospects', i), company, contact,
      title: h.pick(['Owner', 'Purchasing Manager', 'Head Buyer', 'General Manager', 'Inventory Manager', 'Director of Operations']),
      email: h.emailOf(contact, h.domainOf(company)), phone: h.phone(place.area), city: place.city, state: h.state,
      prospect_type: type, stage, value: h.int(type === 'Dispensary Chain' ? 40 : 5, type === 'Dispensary Chain' ? 250 : 80) * 1000,
      source: h.pick(L.source), next_followup: closed ? h.past(120, 20) : i % 7 === 0 ? h.past(6, 1) : h.future(1, 45),
      last_contact: h.past(60, 1), owner: h.staff[i % 4 === 0 ? 0 : i % 3 === 0 ? 3 : 1],
      notes: stage === 'Lost' ? h.pick(['Went with a cheaper supplier.', 'Store sale pending; revisit next quarter.', 'Shelf space committed to house brand.']) : h.pick(['Interested in indica-dominant eighths.', 'Wants COAs before first order.', 'Asked about Net 30 terms.', 'Prefers deliveries Tue/Thu.', 'Buyer changes monthly; confirm contact.', '']),
      ...(stage === 'Lost' && i % 2 ? { IsUsed: 'no' } : {}),
    }
  })

  // Unsubscribed (read-only)
  out.crm_unsub = Array.from({ length: 22 }, (_, i) => {
    const p = out.crm_prospects[(i * 7 + 3) % 60]
    const name = i % 3 === 0 ? h.person() : String(p.contact)
    const company = i % 3 === 0 ? `${h.pick(pre)} ${h.pick(mid)} Dispensary` : String(p.company)
    return {
      _id: id('crm_unsub', i), email: h.emailOf(name, h.domainOf(company)), name, company, date: h.past(360, 1),
      reason: h.pick(L.unsubReason), campaign: id('crm_campaigns', 3 + (i % 12)), channel: i % 5 === 0 ? 'SMS' : 'Email',
    }
  })

  // Workflows
  const wfs: Array<[string, string, Array<[string, string, number]>]> = [
    ['New prospect nurture', 'Prospect created', [['Send email', 'New Account Welcome', 0], ['Wait', '3 days', 3], ['Create to-do', 'Call to qualify', 0], ['Send email', 'Weekly Menu Drop', 7]]],
    ['Samples follow-up', 'Stage changed', [['Wait', 'After samples delivered', 2], ['Send email', 'Sample Follow-up', 0], ['Create to-do', 'Ask for first order', 3]]],
    ['Download lead capture', 'Download requested', [['Assign owner', 'Round robin sales', 0], ['Send email', 'Price Sheet Update', 0], ['Create to-do', 'Verify license', 1]]],
    ['Post-delivery check-in', 'Order delivered', [['Wait', '5 days', 5], ['Send email', 'Order Follow-up', 0]]],
    ['Win-back dormant accounts', 'No order in 30 days', [['Send email', 'Restock Alert', 0], ['Wait', '7 days', 7], ['Send SMS', 'Flash Deal SMS', 0], ['Notify Slack', '#sales', 0]]],
    ['Event RSVP', 'Form submitted', [['Send email', 'Event Invite', 0], ['Wait', 'Day before event', 1], ['Send SMS', 'Reminder', 0]]],
    ['Click to call', 'Campaign clicked', [['Update stage', 'Contacted', 0], ['Create to-do', 'Call within 24h', 1]]],
    ['License expiry reminder', 'Stage changed', [['Send email', 'License Renewal Reminder', 0], ['Wait', '14 days', 14], ['Create to-do', 'Hold orders until renewed', 0]]],
  ]
  out.crm_workflows = wfs.map(([name, trigger, steps], i) => {
    const status = i === 5 ? 'Paused' : i === 7 ? 'Draft' : 'Active'
    const enrolled = status === 'Draft' ? 0 : h.int(15, 320)
    return {
      _id: id('crm_workflows', i), name, trigger, status, enrolled, completed: Math.round(enrolled * h.int(40, 95) / 100),
      owner: h.staffer(), updated: h.past(200, 1), active: status === 'Active' ? 'yes' : 'no',
      steps: steps.map(([action, detail, delay_days], j) => ({ step: j + 1, action, detail, delay_days })),
    }
  })

  // Campaign drafts
  out.crm_campaign_drafts = Array.from({ length: 10 }, (_, i) => {
    const t = i % tpl.length
    const status = L.draftStatus[i % 4]
    return {
      _id: id('crm_campaign_drafts', i), name: `${h.pick(['Spring', 'Summer', 'Fall', 'Winter', 'Holiday', 'Q1', 'Q2'])} ${tpl[t][0]}${i > 6 ? ' v2' : ''}`,
      channel: tpl[t][1], template: id('crm_templates', t), subject: tpl[t][3] || '(SMS)',
      audience: h.pick(['All active dispensaries', 'Medical accounts', 'Top 25 accounts', 'New prospects', 'Dormant 90+ days']),
      recipients: h.int(40, 900), scheduled: h.future(2, 60), status, created_by: h.staffer(),
      compliance_ok: status === 'Approved' || status === 'Scheduled' ? 'yes' : 'no',
    }
  })

  // Sales pipeline
  const dealWhat = cul
    ? ['Monthly flower standing order', 'Pre-roll private label', 'Trim for extraction', 'Holiday eighths buy', 'Fresh frozen contract', 'Clone supply agreement', 'Reserve tier shelf deal', 'Smalls / popcorn bulk']
    : ['Brand portfolio onboarding', 'Edibles restock program', 'Vape category reset', 'Delivery route add-on', 'Concentrates launch', 'Exclusive regional brand', 'Quarterly menu program', 'Holiday gift sets']
  const products = ['Flower', 'Pre-Roll', 'Shake/Trim', 'Concentrate', 'Vape Cartridge', 'Edible', 'Tincture', 'Topical', 'Seeds', 'Clones']
  const prob: Record<string, number> = { Prospecting: 10, Qualification: 20, 'Samples Sent': 35, Proposal: 50, Negotiation: 70, 'Closed Won': 100, 'Closed Lost': 0 }
  out.crm_pipeline = Array.from({ length: 30 }, (_, i) => {
    const c = (i * 7) % 20
    const stage = L.dealStage[h.int(0, 6)]
    const closed = stage.startsWith('Closed')
    const prods = cul ? ['Flower', 'Pre-Roll', 'Shake/Trim', 'Clones'] : products.slice(0, 8)
    return {
      _id: id('crm_pipeline', i), deal: dealWhat[i % dealWhat.length], client: id('set_clients', c), contact: id('set_contacts', c),
      stage, amount: h.int(3, 120) * 500, probability: prob[stage], close_date: closed ? h.past(150, 1) : h.future(5, 120),
      products: [h.pick(prods), ...(i % 2 ? [h.pick(prods)] : [])].filter((v, j, a) => a.indexOf(v) === j),
      owner: h.staff[i % 3 === 0 ? 3 : 1],
      next_step: closed ? '' : h.pick(['Send updated price sheet', 'Drop samples Thursday', 'Call buyer re: terms', 'Send COAs', 'Schedule store visit', 'Confirm license on file']),
    }
  })

  // Partners
  const partners: Array<[string, string]> = [
    ['Clearwater Analytical Labs', 'Testing Lab'], ['Pinnacle Testing Services', 'Testing Lab'], ['Kush Bottles Supply', 'Packaging Vendor'], ['Greenlane Packaging', 'Packaging Vendor'],
    ['Advanced Nutrients', 'Nutrient Supplier'], ['Fluence Lighting', 'Equipment'], ['Quest Dehumidifiers', 'Equipment'], ['Sentinel Secure Guard', 'Security'],
    ['Canna Compliance Partners', 'Consultant'], ['Leafly Ads', 'Software'], ['Weedmaps for Business', 'Software'], ['Humboldt Seed Organization', 'Brand'],
    ['Rolling Paper Co.', 'Packaging Vendor'], ['CleanGreen Certified', 'Consultant'], ['Evergreen Waste Solutions', 'Consultant'],
  ]
  out.crm_partners = partners.map(([name, partner_type], i) => {
    const contact = h.person()
    const since = h.past(1400, 60)
    return {
      _id: id('crm_partners', i), name, partner_type, contact, email: h.emailOf(contact, h.domainOf(name)), phone: h.phone(),
      website: `https://www.${h.domainOf(name)}`, agreement: i === 9 ? 'Expired' : i % 6 === 4 ? 'Pending Signature' : i === 13 ? 'Negotiating' : 'Active',
      since, renewal: i === 9 ? h.past(40, 5) : h.future(10, 360), annual_spend: h.int(2, 90) * 1000, ...(i === 9 ? { IsUsed: 'no' } : {}),
    }
  })

  // Download requests
  const assets = cul
    ? ['Wholesale Price Sheet (Q4)', 'COA Pack - Wedding Cake', 'COA Pack - Blue Dream', 'Strain Guide 2026', 'Brand Assets & Logos', 'Product Photos (hi-res)', 'Pre-Roll Spec Sheet', 'Sustainability Report']
    : ['Wholesale Catalog (Q4)', 'Brand Portfolio Deck', 'Delivery Schedule & Zones', 'Credit Application', 'Product Photos (hi-res)', 'COA Library Export', 'Return Policy', 'Menu Integration Guide']
  out.crm_download_requests = Array.from({ length: 24 }, (_, i) => {
    const p = out.crm_prospects[(i * 5 + 1) % 60]
    const name = String(p.contact)
    const status = i < 4 ? 'Pending' : i % 9 === 5 ? 'Denied' : 'Sent'
    return {
      _id: id('crm_download_requests', i), name, email: String(p.email), company: String(p.company), asset: assets[i % assets.length],
      requested: i < 4 ? h.past(3) : h.past(200, 3), status, source: h.pick(['Website', 'Email Campaign', 'Trade Show', 'LinkedIn']),
      license: h.license('Dispensary'), verified: status === 'Denied' ? 'no' : h.yn(0.85),
    }
  })

  // Messages
  const subjects = ['Re: samples', 'Pricing question', 'Re: order for next week', 'COA request', 'Delivery window', 'Intro from {co}', 'Re: terms', 'Menu availability', 'Meeting recap', 'Re: invoice']
  out.crm_messages = Array.from({ length: 32 }, (_, i) => {
    const pi = (i * 11) % 60
    const p = out.crm_prospects[pi]
    const inbound = i % 3 !== 0
    const me = h.staffer()
    return {
      _id: id('crm_messages', i), subject: subjects[i % subjects.length].replace('{co}', ctx.facility.fullName.split(',')[0]), prospect: id('crm_prospects', pi),
      from: inbound ? String(p.email) : h.staffEmail(me), to: inbound ? h.staffEmail(me) : String(p.email),
      channel: i % 8 === 3 ? 'SMS' : i % 10 === 6 ? 'Phone' : 'Email', direction: inbound ? 'Inbound' : 'Outbound', sent: h.past(90),
      body: inbound ? h.pick(['Can you send the current menu and COAs?', 'We would like to try 2 lb of your top seller.', 'Is Net 30 possible after the first order?', 'Our delivery window is 10am-2pm weekdays.', 'Thanks, samples were a hit with the staff.']) : h.pick(['Attached is our current price sheet.', 'Samples will go out on Thursday\'s route.', 'Happy to set up Net 15 after two COD orders.', 'Following up on the proposal from last week.']),
      read: inbound ? h.yn(0.75) : 'yes',
    }
  })

  // To do
  const todos = ['Call buyer to confirm order', 'Send COAs for {s}', 'Drop off samples', 'Verify license on file', 'Update price sheet', 'Schedule store walk-through', 'Follow up on proposal', 'Collect signed credit application', 'Budtender training visit', 'Send thank-you note']
  const strainNames = ['Blue Dream', 'Wedding Cake', 'Gelato #33', 'OG Kush', 'Zkittlez']
  out.crm_todo = Array.from({ length: 24 }, (_, i) => {
    const status = i % 5 === 4 ? 'Done' : i % 7 === 2 ? 'Waiting' : i % 3 === 1 ? 'In Progress' : 'Open'
    return {
      _id: id('crm_todo', i), task: todos[i % todos.length].replace('{s}', strainNames[i % strainNames.length]), prospect: id('crm_prospects', (i * 13) % 60),
      assigned_to: h.staff[i % 2 ? 1 : 3], priority: L.priority[(i * 3) % 4], status, due: status === 'Done' ? h.past(40, 1) : i % 6 === 0 ? h.past(5, 1) : h.future(0.2, 21),
      done: status === 'Done' ? 'yes' : 'no', notes: i % 4 === 0 ? 'Ask for the new buyer\'s direct line.' : '',
    }
  })
  return out
}
