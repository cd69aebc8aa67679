/**
 * Seed records of the "business" group, part 3: Other (visitor log, policies, documents, teams,
 * messages) and Operations tickets.
 */
import { fileRef, type SeedCtx, type SeedDoc } from '../kit'
import { L2 } from '../schemas/business'
import type { H } from './business-2'

/** The state's cannabis regulator (SPEC §5 states). */
export const AGENCY: Record<string, string> = {
  CA: 'Department of Cannabis Control', CO: 'Marijuana Enforcement Division', AK: 'Alcohol & Marijuana Control Office', DC: 'Alcoholic Beverage and Cannabis Administration',
  LA: 'Louisiana Board of Pharmacy', ME: 'Office of Cannabis Policy', MA: 'Cannabis Control Commission', MD: 'Maryland Cannabis Administration', MI: 'Cannabis Regulatory Agency',
  MO: 'Division of Cannabis Regulation', MT: 'Cannabis Control Division', NV: 'Cannabis Compliance Board', OH: 'Division of Cannabis Control', OK: 'Oklahoma Medical Marijuana Authority',
  OR: 'Oregon Liquor and Cannabis Commission', WV: 'Office of Medical Cannabis',
}

/** The demo accounts in the demo teams (policies addressed to a team reach them). */
const DEMO_MEMBERS: Record<string, string[]> = {
  'greenleaf/Grow Team A': ['u-grower'],
  'greenleaf/Compliance': ['u-compliance'],
  'harbor/Drivers': ['u-dist'],
  'harbor/Compliance': ['u-compliance'],
}

/** A short policy text with a heading, a list and a table, as the editor writes it. */
function policyBody(title: string, category: string, agency: string, facility: string): string {
  return `<h2>${title}</h2><p>This policy applies to everyone working at ${facility}. It is written to meet ${agency} requirements.</p>`
    + `<h3>What you must do</h3><ul><li>Read this policy and acknowledge it in Canopy.</li><li>Follow it on every shift.</li><li>Report anything that does not match it to your lead.</li></ul>`
    + `<table><thead><tr><th>Topic</th><th>Owner</th></tr></thead><tbody><tr><td>${category}</td><td>Compliance</td></tr><tr><td>Training</td><td>Team lead</td></tr></tbody></table>`
}

export function seedOther(ctx: SeedCtx, h: H, roomNames: string[], clientNames: string[]): Record<string, SeedDoc[]> {
  const id = ctx.id
  const cul = h.kind === 'cultivation'
  const org = ctx.facility.org
  const agency = AGENCY[h.state] ?? 'State Cannabis Regulator'
  const out: Record<string, SeedDoc[]> = {}

  // Visitor log
  const visitCo: Record<string, string[]> = {
    'Vendor Delivery': ['Hydro Supply Depot', 'Uline', 'Kush Bottles Supply', 'Grainger'],
    'State Inspection': [agency],
    'Client Tour': clientNames.slice(0, 10),
    'Contractor / Maintenance': ['Bay Mechanical HVAC', 'Bright Line Electric', 'Sentinel Secure Guard', 'ProFlow Plumbing'],
    'Lab Sampling': ['Clearwater Analytical Labs', 'Pinnacle Testing Services'],
    'Job Interview': ['(candidate)'],
    'Compliance Audit': ['Canna Compliance Partners', 'County Fire Marshal'],
    'Transport Pickup': ['Summit Logistics & Distribution', 'Pacific Secure Transport'],
    'Investor Visit': ['Redwood Capital Partners', 'Arcview Group'],
    'Pest Control': ['EcoGuard Pest Solutions'],
  }
  out.vis_log = Array.from({ length: 50 }, (_, i) => {
    const purpose = i % 10 === 0 ? 'State Inspection' : L2.visitPurpose[(i * 7) % L2.visitPurpose.length]
    const onSite = i < 2
    const signed_in = onSite ? h.past(0.125, 0.02) : h.atLocalHour(h.past(120, 1), h.int(7, 16))
    return {
      _id: id('vis_log', i), visitor: h.person(), company: h.pick(visitCo[purpose]), purpose, host: id('set_contacts', (i * 3) % 25),
      badge: `V-${String(100 + (i % 40)).padStart(3, '0')}`, signed_in, signed_out: onSite ? '' : h.plus(signed_in, h.int(2, 16) / 96),
      id_type: purpose === 'State Inspection' ? 'Agent Badge' : h.pick(["Driver's License", "Driver's License", 'State ID', 'Passport']),
      id_checked: i === 17 ? 'no' : 'yes', nda_signed: purpose === 'State Inspection' || purpose === 'Vendor Delivery' ? 'no' : h.yn(0.9), escorted: 'yes',
      vehicle_plate: h.plate(0.7),
      notes: purpose === 'State Inspection' ? 'Routine inspection; walked all limited-access areas.' : i === 17 ? 'ID not presented; visit limited to lobby.' : '',
    }
  })

  // Policies
  const common: Array<[string, string, string]> = [
    ['Security & Surveillance Plan', 'SEC', 'Security'], ['Visitor & Access Control', 'SEC', 'Security'], ['Inventory Control & Reconciliation', 'INV', 'Inventory Control'],
    ['Waste Disposal & Destruction', 'WST', 'Waste Disposal'], ['Product Recall Procedure', 'QA', 'Recall'], ['Transport & Manifest Procedure', 'TRN', 'Transport'],
    ['Diversion Prevention', 'SEC', 'Security'], ['Employee Safety & PPE', 'EHS', 'Employee Safety'], ['Sanitation & Pest Management', 'SAN', 'Sanitation'],
    ['Record Keeping & Retention', 'ADM', 'Record Keeping'], ['Emergency Response Plan', 'EHS', 'Employee Safety'], ['Quality Assurance & Testing', 'QA', 'Quality Assurance'],
  ]
  const own: Array<[string, string, string]> = cul
    ? [['Plant Tagging & Tracking SOP', 'CUL', 'Cultivation'], ['Harvest & Drying SOP', 'CUL', 'Cultivation'], ['Integrated Pest Management', 'CUL', 'Cultivation'], ['Nutrient Mixing & Fertigation', 'CUL', 'Cultivation']]
    : [['Receiving & Quarantine SOP', 'INV', 'Inventory Control'], ['Packaging & Labeling SOP', 'QA', 'Quality Assurance'], ['Cash Handling Policy', 'ADM', 'Record Keeping'], ['Vehicle Inspection Policy', 'TRN', 'Transport']]
  out.pol_docs = [...common, ...own].map(([title, code, category], i) => {
    const doc_no = `SOP-${code}-${String(i + 1).padStart(3, '0')}`
    const effective = h.past(i % 5 === 3 ? 500 : 330, 20)
    const status = i === 14 ? 'Draft' : i === 7 ? 'In Review' : i === 11 ? 'Retired' : 'Approved'
    return {
      _id: id('pol_docs', i), title, doc_no, version: `${h.int(1, 4)}.${h.int(0, 5)}`, category, owner: i % 3 === 0 ? h.staff[2] : h.staffer(),
      approved_by: h.staff[0], effective, review_due: h.plus(effective, 365), status, approved: status === 'Approved' ? 'yes' : 'no',
      pdf: fileRef(org, 'policies', `${doc_no}.pdf`), summary: `${title} for ${ctx.facility.fullName}, written to ${agency} requirements.`,
      body: policyBody(title, category, agency, ctx.facility.fullName),
      // two are published (issue 26): one to every account of the facility, one to the first grow or receiving team
      ...(i === 9 ? { roles: ['admin', 'user'], published_version: 1, published_at: new Date(ctx.now.getTime() - 12 * 86_400_000).toISOString() } : {}),
      ...(i === 12 ? { groups: [id('team_groups', 0)], published_version: 1, published_at: new Date(ctx.now.getTime() - 4 * 86_400_000).toISOString() } : {}),
      ...(status === 'Retired' ? { IsUsed: 'no' } : {}), ...(i < 2 ? { ed: 'no', delete: 'no' } : {}),
    }
  })

  // File uploads
  const strains = ['BlueDream', 'WeddingCake', 'Gelato33', 'OGKush', 'GG4', 'Zkittlez']
  const files: Array<() => [string, string, string]> = [
    () => [`COA_${h.pick(strains)}_B${h.digits(4)}.pdf`, 'COA', 'PDF'],
    () => [`Manifest_000${h.digits(7)}.pdf`, 'Manifest', 'PDF'],
    () => [`Invoice_INV-${h.int(10000, 10999)}.pdf`, 'Invoice', 'PDF'],
    () => [`Inventory_Reconciliation_${h.pick(['Aug', 'Sep', 'Oct', 'Nov'])}.csv`, 'Report', 'CSV'],
    () => [`${cul ? h.pick(roomNames.slice(4, 7)) : h.pick(roomNames)}_photo_${h.int(1, 40)}.png`.replace(/[^A-Za-z0-9_.-]/g, ''), 'Photo', 'PNG'],
    () => [`Training_Roster_Q${h.int(1, 4)}.csv`, 'Training', 'CSV'],
    () => [`Insurance_COI_${h.pick(['GL', 'Auto', 'Crop', 'Product'])}.pdf`, 'Insurance', 'PDF'],
    () => [`Supply_Agreement_${h.pick(clientNames).replace(/[^A-Za-z]/g, '')}.pdf`, 'Contract', 'PDF'],
  ]
  out.doc_files = Array.from({ length: 24 }, (_, i) => {
    const [name, category, file_type] = i === 0 ? ['License_Certificate.pdf', 'License', 'PDF'] : i === 1 ? ['FloorPlan_Rev7.pdf', 'Floor Plan', 'PDF'] : files[i % files.length]()
    return {
      _id: id('doc_files', i), name, category, file_type, size_kb: file_type === 'JPG' ? h.int(900, 4800) : h.int(40, 1900), uploaded_by: h.staffer(),
      uploaded: h.past(240), file: fileRef(org, 'uploads', name), tags: category.toLowerCase(),
    }
  })

  // HTML documents
  const html: Array<[string, string, string]> = [
    ['Wholesale Menu - This Week', 'Menu', '<h2>Wholesale Menu</h2><table><tr><th>Strain</th><th>Tier</th><th>$/lb</th></tr><tr><td>Wedding Cake</td><td>Indoor A</td><td>1,650</td></tr><tr><td>Blue Dream</td><td>Mixed light</td><td>1,150</td></tr></table>'],
    ['Holiday Hours', 'Announcement', '<p>Closed Thanksgiving Day and December 25. Last deliveries December 23.</p>'],
    ['New Hire Onboarding Checklist', 'Onboarding', '<ol><li>Badge and agent card</li><li>METRC user account</li><li>Security walkthrough</li><li>SOP sign-off</li></ol>'],
    ['Visitor Safety Briefing', 'Procedure', '<p>Visitors are escorted at all times, wear the badge visibly and may not take photos in limited-access areas.</p>'],
    ['Email Footer - Compliance', 'Email Footer', '<p style="font-size:11px">For licensed cannabis businesses only. Not for resale to persons under 21.</p>'],
    ['Package Insert - Warnings', 'Label Insert', '<p><strong>GOVERNMENT WARNING:</strong> This product contains cannabis. Keep out of reach of children and animals.</p>'],
    cul ? ['Harvest Quick Card', 'Procedure', '<ol><li>Tag check against METRC</li><li>Wet weight per plant on the scale</li><li>Hang in Dry Room, 60F / 60% RH</li></ol>'] : ['Driver Pre-Trip Checklist', 'Procedure', '<ol><li>Manifest printed and signed</li><li>Lockbox secured</li><li>GPS on</li><li>Route filed</li></ol>'],
    ['Recall Notice Template', 'Announcement', '<p>We are voluntarily recalling package {{tag}}. Please quarantine it and contact us.</p>'],
    ['Inspection Prep Checklist', 'Procedure', '<ul><li>Visitor log current</li><li>Waste log signed</li><li>Camera retention 90 days</li></ul>'],
    ['Welcome Letter for New Accounts', 'Onboarding', '<p>Thank you for choosing us. Your account manager will reach out within one business day.</p>'],
  ]
  out.doc_html = html.map(([title, category, body], i) => ({
    _id: id('doc_html', i), title, slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-$/, ''), category, author: h.staffer(),
    updated: h.past(200, 1), published: i === 7 ? 'no' : 'yes', body,
  }))

  // Documents register
  const day = 86_400_000
  const docs: Array<[string, string, number]> = [
    [cul ? 'State Adult-Use Cultivation License' : 'State Distribution License', 'License', 365], ['Local Business / Use Permit', 'License', 300], ['Certificate of Insurance - General Liability', 'Insurance', 200],
    ['Certificate of Insurance - Commercial Auto', 'Insurance', 40], ['Product Liability Policy', 'Insurance', 250], ['Facility Lease Agreement', 'Contract', 900],
    ['Security Monitoring Contract', 'Contract', 120], ['Waste Hauler Agreement', 'Contract', -20], ['Floor Plan (Rev 7)', 'Floor Plan', 0], ['Fire Inspection Report', 'Inspection Report', 0],
    ['Last State Inspection Report', 'Inspection Report', 0], ['SOP Binder Index', 'SOP', 0], ['Employee Agent Card Register', 'Form', 0], ['Visitor Log Form (paper backup)', 'Form', 0],
    ['Waste Log Form', 'Form', 0], ['Training Record - METRC Basics', 'Training Record', 0], ['Training Record - Security & Diversion', 'Training Record', 0],
    ['COA - Wedding Cake batch', 'COA', 0], ['COA - Blue Dream batch', 'COA', 0], ['COA - Gelato #33 batch', 'COA', 0], ['Manifest - latest outbound', 'Manifest', 0],
    ['Manifest - latest inbound', 'Manifest', 0], [`Supply Agreement - ${clientNames[0]}`, 'Contract', 160], [`Supply Agreement - ${clientNames[3]}`, 'Contract', 25], ['Weights & Measures Scale Certificate', 'License', 75],
  ]
  out.doc_list = docs.map(([title, doc_type, expDays], i) => {
    const expires = expDays ? new Date(ctx.now.getTime() + (expDays + h.int(0, 20)) * day).toISOString() : ''
    const status = i === 8 ? 'Superseded' : !expires ? 'Current' : Date.parse(expires) < ctx.now.getTime() ? 'Expired' : Date.parse(expires) - ctx.now.getTime() < 60 * day ? 'Expiring Soon' : 'Current'
    return {
      _id: id('doc_list', i), title, doc_no: `DOC-${String(i + 101).padStart(4, '0')}`, doc_type, owner: doc_type === 'License' || doc_type === 'Inspection Report' ? h.staff[2] : h.staffer(),
      updated: h.past(400, 1), expires, status, link: fileRef(org, 'docs', `DOC-${String(i + 101).padStart(4, '0')}.pdf`), ...(status === 'Superseded' ? { IsUsed: 'no' } : {}),
    }
  })

  // Teams
  const teams: Array<[string, string, string, string]> = cul
    ? [['Grow Team A', 'Cultivation', 'Day', 'Flower Rooms 1-2'], ['Grow Team B', 'Cultivation', 'Swing', 'Flower Room 3, Veg'], ['Propagation', 'Cultivation', 'Day', 'Mothers and clones'], ['IPM Crew', 'Cultivation', 'Rotating', 'Scouting and treatments'],
      ['Harvest & Dry', 'Post-Harvest', 'Day', 'Harvest, wet weights, dry room'], ['Trim Crew', 'Post-Harvest', 'Day', 'Hand trim and bucking'], ['Compliance', 'Compliance', 'Day', 'METRC, audits, waste'], ['Security', 'Security', 'Rotating', '24/7 guard and cameras']]
    : [['Receiving', 'Inventory', 'Day', 'Inbound manifests and quarantine'], ['Packaging Line', 'Inventory', 'Day', 'Repack, labels, pre-rolls'], ['Order Pickers', 'Inventory', 'Swing', 'Pick, pack, stage'], ['Drivers', 'Logistics', 'Day', 'Routes and deliveries'],
      ['Compliance', 'Compliance', 'Day', 'METRC, manifests, audits'], ['Security', 'Security', 'Rotating', '24/7 guard and cameras'], ['Sales', 'Sales', 'Day', 'Accounts and pipeline'], ['Accounting', 'Finance', 'Day', 'Invoices and collections']]
  out.team_groups = teams.map(([name, department, shift, description], i) => ({
    _id: id('team_groups', i), name, department, lead: i < h.staff.length ? h.staff[(i + 1) % h.staff.length] : h.staffer(), members: h.int(3, 14), shift,
    channel: `#${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, description,
    // who is in it (user ids; issue 22 gives /TeamGroups a screen to edit them): the demo's grower, compliance officer and driver
    member_uids: DEMO_MEMBERS[`${org}/${name}`] ?? [],
  }))

  // Internal messages
  const msgs: Array<[string, string]> = cul
    ? [['Flower Room 2 harvest moved to Thursday', 'Schedule'], ['METRC was down this morning - backfill plant moves', 'Compliance'], ['State inspection window next week', 'Compliance'], ['Dehumidifier in Flower Room 1 serviced', 'Maintenance'],
      ['Clone cut schedule for Gelato #33', 'Schedule'], ['Waste log needs two signatures', 'Compliance'], ['New trim crew starts Monday', 'HR'], ['Wedding Cake sold out - hold remaining for top accounts', 'Sales'], ['Fire drill Friday 10am', 'General'], ['Nutrient delivery arriving Tuesday', 'General']]
    : [['Route 2 delayed - traffic on I-25', 'Schedule'], ['METRC was down this morning - hold manifests', 'Compliance'], ['State inspection window next week', 'Compliance'], ['Van 3 back from the shop', 'Maintenance'],
      ['Quarantine cage is full - prioritize COA reviews', 'Compliance'], ['Packaging line label printer replaced', 'Maintenance'], ['New driver onboarding Monday', 'HR'], ['Holiday order cutoff is Dec 20', 'Sales'], ['Fire drill Friday 10am', 'General'], ['Cash pickup moved to Wednesdays', 'General']]
  out.msg_messages = Array.from({ length: 30 }, (_, i) => {
    const [subject, category] = msgs[i % msgs.length]
    const from = h.staff[i % h.staff.length]
    return {
      _id: id('msg_messages', i), subject: i >= msgs.length ? `Re: ${subject}` : subject, from, to: i % 4 === 0 ? 'All staff' : h.staff[(i + 3) % h.staff.length],
      category, priority: category === 'Compliance' ? 'High' : i % 9 === 0 ? 'Urgent' : h.pick(['Low', 'Medium', 'Medium']), sent: h.atLocalHour(h.past(60, 1), h.int(6, 18)), read: i < 5 ? 'no' : h.yn(0.85),
      body: `${subject}. Please check with ${from.split(' ')[0]} if you have questions.`,
    }
  })
  return out
}

export function seedOps(ctx: SeedCtx, h: H, roomNames: string[]): Record<string, SeedDoc[]> {
  const id = ctx.id
  const cul = h.kind === 'cultivation'
  const out: Record<string, SeedDoc[]> = {}
  const ticket = (collection: string, prefix: string, i: number, title: string) => {
    const status = L2.ticketStatus[[0, 0, 1, 1, 2, 3, 4, 4, 4][(i * 5) % 9]]
    const created = h.past(150, 3)
    const due = status === 'Done' ? h.plus(created, h.int(3, 30)) : i % 6 === 2 ? h.past(10, 1) : h.future(1, 45)
    return {
      _id: id(collection, i), ticket: `${prefix}-${1001 + i}`, title, status, priority: L2.priority[[1, 2, 1, 0, 2, 3, 1][i % 7]], owner: h.staff[(i * 3) % h.staff.length],
      requester: h.staff[(i * 5 + 1) % h.staff.length], created, due, estimate_hours: h.pick([1, 2, 4, 6, 8, 12, 16, 24]), description: `${title}.`,
    }
  }
  const eng: Array<[string, string, number]> = cul
    ? [['Dehumidifier short-cycling', 'HVAC', 5], ['Replace failed LED driver', 'Lighting', 2], ['Irrigation zone 3 emitters clogged', 'Irrigation / Fertigation', 6], ['CO2 controller calibration', 'HVAC', 0],
      ['Camera 14 offline', 'Security / Cameras', 9], ['Label printer printing blank tags', 'Label Printers', 1], ['Floor scale annual certification', 'Scales', 7], ['HVAC filter changeout', 'HVAC', 4],
      ['Dry room humidity overshoot', 'HVAC', 7], ['Network switch dropping packets', 'Network / IT', 8], ['Backup generator load test', 'Electrical', 9], ['Reservoir chiller leaking', 'Irrigation / Fertigation', 5],
      ['Replace door badge reader', 'Security / Cameras', 9], ['Fertigation EC sensor drift', 'Irrigation / Fertigation', 4], ['Add circuit for new lights', 'Electrical', 6], ['Drain line backup', 'Plumbing', 3],
      ['Bench scale reads 2 g high', 'Scales', 8], ['Wi-Fi dead zone in trim room', 'Network / IT', 8], ['Exhaust fan bearing noise', 'HVAC', 1], ['Emergency lighting test', 'Electrical', 9]]
    : [['Van check engine light', 'Vehicles', -1], ['Dock door seal torn', 'Facility', 7], ['Vault badge reader intermittent', 'Security / Cameras', 2], ['Pallet racking annual inspection', 'Racking / Storage', 1],
      ['Packaging line printer jams', 'Label Printers', 3], ['Camera 6 blurry (shipping dock)', 'Security / Cameras', 7], ['Bench scale certification', 'Scales', 3], ['Cold storage temp alarm', 'HVAC', 5],
      ['Replace forklift battery', 'Racking / Storage', 6], ['Network outage at staging stations', 'Network / IT', 6], ['Lockbox latch broken in Van 2', 'Vehicles', -1], ['Backup generator load test', 'Electrical', 2],
      ['Roll-up door motor failing', 'Facility', 7], ['Wi-Fi dead zone in vault', 'Network / IT', 2], ['Tire rotation and inspection fleet', 'Vehicles', -1], ['Condensate drain leak', 'Plumbing', 5],
      ['Label template misaligned', 'Label Printers', 3], ['Motion sensor false alarms', 'Security / Cameras', 0], ['HVAC filter changeout', 'HVAC', 5], ['Emergency lighting test', 'Electrical', 8]]
  out.ops_engineering = eng.map(([title, system, room], i) => ({
    ...ticket('ops_engineering', 'ENG', i, title), system, location: room < 0 ? `Van ${1 + (i % 3)}` : roomNames[room], cost: h.int(0, 60) * 50,
  }))
  const enh: Array<[string, string]> = [
    ['Bulk print plant tags for a planting', 'Cultivation'], ['Auto-fill wet weight from the floor scale', 'Cultivation'], ['THC % on package labels', 'Distribution'], ['Export manifest as PDF', 'Distribution'],
    ['Tablet-friendly visitor sign-in', 'Other'], ['Low-stock alerts by product type', 'Distribution'], ['Strain lineage view', 'Settings'], ['Receivables reminder emails', 'Finance'],
    ['Room VPD chart on the sensors dashboard', 'Sensors'], ['Harvest yield per sq ft report', 'Dashboards'], ['Calendar: recurring IPM tasks', 'Tasks'], ['Sync METRC items nightly', 'Metrc'],
    ['Prospect import from CSV', 'CRM'], ['Bulk edit product prices', 'Distribution'], ['Waste log e-signatures', 'Cultivation'], ['Lab results auto-attach to packages', 'Testing'],
  ]
  out.ops_enhancements = enh.map(([title, module], i) => {
    const t = ticket('ops_enhancements', 'ENH', i, title)
    return { ...t, module, votes: h.int(0, 48), target_release: t.status === 'Done' ? '4.1.0' : h.pick(['4.2.0', '4.2.0', '4.3.0', 'Backlog']) }
  })
  const mkt: Array<[string, string, string]> = cul
    ? [['Instagram carousel: Wedding Cake drop', 'Instagram', 'Social Post'], ['Reprint sell sheets', 'Print / POS', 'Sell Sheet'], ['Trade show booth graphics', 'Trade Show', 'Event Booth'], ['Harvest time-lapse video', 'Instagram', 'Video'],
      ['Update strain guide', 'Website', 'Brochure'], ['Budtender education deck', 'Budtender Education', 'Sell Sheet'], ['Mylar bag art refresh', 'Packaging', 'Packaging Art'], ['Press release: new flower room', 'PR', 'Press Release'],
      ['Holiday menu card', 'Print / POS', 'Menu Card'], ['Website strain pages SEO', 'Website', 'Banner'], ['Email header banners', 'Email', 'Banner'], ['Sustainability story post', 'Instagram', 'Social Post'],
      ['Shelf talkers for top accounts', 'Print / POS', 'Menu Card'], ['Pre-roll tube label update', 'Packaging', 'Packaging Art']]
    : [['Brand portfolio deck refresh', 'Trade Show', 'Brochure'], ['Delivery zones map for website', 'Website', 'Banner'], ['Trade show booth graphics', 'Trade Show', 'Event Booth'], ['Monthly menu email template', 'Email', 'Banner'],
      ['Buyer summit invitations', 'Email', 'Menu Card'], ['Budtender training video', 'Budtender Education', 'Video'], ['Press release: same-day delivery', 'PR', 'Press Release'], ['Instagram: meet the drivers', 'Instagram', 'Social Post'],
      ['Wholesale catalog print run', 'Print / POS', 'Brochure'], ['Holiday gift set one-pager', 'Print / POS', 'Sell Sheet'], ['Website brand logos update', 'Website', 'Banner'], ['Box insert card', 'Packaging', 'Packaging Art'],
      ['Case study: retail partner', 'PR', 'Brochure'], ['Social calendar for December', 'Instagram', 'Social Post']]
  out.ops_marketing = mkt.map(([title, channel, asset], i) => ({ ...ticket('ops_marketing', 'MKT', i, title), channel, asset, budget: h.int(0, 40) * 100 }))
  const sal: Array<[string, number]> = [
    ['Volume pricing for 10 lb monthly order', 0], ['Samples for buyer meeting', 1], ['Open new account', 2], ['Raise credit limit', 3], ['Short-shipped order credit', 4],
    ['Return of damaged cases', 5], ['Menu placement for new line', 6], ['Renew annual supply contract', 7], ['Price match request', 0], ['Samples: new strains', 1],
    ['New account paperwork', 2], ['Credit hold review', 3], ['Wrong SKU delivered', 4], ['Endcap placement program', 6], ['Contract renewal terms', 7],
    ['Pricing for holiday bundles', 0], ['Replacement for expired product', 5], ['Account transfer to new owner', 2],
  ]
  out.ops_sales = sal.map(([title, t], i) => ({
    ...ticket('ops_sales', 'SAL', i, title), request_type: L2.salesType[t], client: id('set_clients', (i * 3) % 20), value: h.int(cul ? 4 : 2, cul ? 90 : 60) * 250,
  }))
  const help: Array<[string, number]> = [
    ['Label printer prints blank tags after the update', 6], ['How do I undo a harvest weight entered twice?', 0], ['METRC sync shows an old package count', 6],
    ['Add a new staff member to the Cultivation module', 10], ['Scale reading times out on the trim room tablet', 0],
  ]
  out.support_tickets = help.map(([title, m], i) => ({ ...ticket('support_tickets', 'SUP', i, title), module: L2.modules[m] }))
  return out
}
