/**
 * Demo records of the platform collections, part 2: HTML snippets, pipelines, plans, tasks,
 * policies, dispatch log, app workflows/documents/dashboards, debug log, servers, forms, menus,
 * entitlements and face recognition. Merged by seedPlatformRecords in ./platform.
 */
import { PLATFORM_ORG } from '../../route-map'
import { clock, fileRef, rowsOf, type SeedCtx, type SeedRecords } from '../kit'


type Row = Record<string, unknown>
const rows = rowsOf

export function seedPlatformRecords2(ctx: SeedCtx): SeedRecords {
  const { rng } = ctx
  const { ago, ahead, hoursAgo } = clock(ctx)
  const out: SeedRecords = {}

  // ---- HTML snippets and pipelines -----------------------------------------------------------
  out.sup_html = rows(ctx, 'sup_html', [
    { name: 'eula', title: 'End User License Agreement', used_on: 'EULA', lang: 'en', html: '<h2>End User License Agreement</h2><p>By selecting Agree you accept the Canopy terms of service, version 2026.1.</p>', updated: ago(320), published: 'yes', delete: 'no' },
    { name: 'eula_es', title: 'Acuerdo de licencia de usuario final', used_on: 'EULA', lang: 'es', html: '<h2>Acuerdo de licencia de usuario final</h2><p>Al seleccionar Aceptar, usted acepta los términos de servicio de Canopy, versión 2026.1.</p>', updated: ago(320), published: 'yes' },
    { name: 'welcome_banner', title: 'Welcome', used_on: 'Welcome', lang: 'en', html: '<h1>Welcome to Canopy</h1><p>Seed-to-sale operations for licensed cannabis facilities.</p>', updated: ago(19), published: 'yes' },
    { name: 'support_contact', title: 'Support', used_on: 'Support', lang: 'en', html: '<p>Email <a href="mailto:support@canopy.app">support@canopy.app</a> or call (877) 555-0100, Monday to Friday 7:00-19:00 PT.</p>', updated: ago(75), published: 'yes' },
    { name: 'kiosk_instructions', title: 'Kiosk Instructions', used_on: 'Kiosk', lang: 'en', html: '<ol><li>Scan the plant tag.</li><li>Place the bin on the scale.</li><li>Press Save.</li></ol>', updated: ago(40), published: 'yes' },
    { name: 'metrc_help', title: 'Finding your METRC API key', used_on: 'DisplayHTML', lang: 'en', html: '<p>In METRC, open your user profile, choose API Keys and generate a user key. Paste it together with your state license number.</p>', updated: ago(64), published: 'yes' },
    { name: 'holiday_notice', title: 'Holiday Hours', used_on: 'DisplayHTML', lang: 'en', html: '<p>Support hours are reduced December 24-26.</p>', updated: ago(2), published: 'no' },
  ])

  const pipe = (p: unknown) => JSON.stringify(p, null, 2)
  out.sup_pipelines = rows(ctx, 'sup_pipelines', [
    { name: 'table_page', collection: '*', description: 'Generic table page: active filter, date filter, search, sort and facet with skip/limit and total count.', pipeline: pipe([{ $match: { IsUsed: { $ne: 'no' } } }, { $match: { '{dateField}': { $gte: '{from}', $lte: '{to}' } } }, { $match: { '{field}': { $regex: '{search}', $options: 'i' } } }, { $sort: { '{sortKey}': -1 } }, { $facet: { pages: [{ $skip: 0 }, { $limit: 10 }], total: [{ $count: 'count' }] } }]), used_by: 'Table screen', updated: ago(19), enabled: 'yes', delete: 'no' },
    { name: 'sensor_hourly_rollup', collection: 'sen_readings', description: 'Hourly average of every sensor code per device.', pipeline: pipe([{ $match: { ts: { $gte: '{hourStart}' } } }, { $group: { _id: { device: '$deviceID', code: '$code' }, avg: { $avg: '$value' }, max: { $max: '$value' } } }]), used_by: 'Sensor data rollup', updated: ago(44), enabled: 'yes' },
    { name: 'compliance_digest', collection: 'fac_waste', description: 'Waste weight by method for the last 24 hours.', pipeline: pipe([{ $match: { cts: { $gte: '{since}' } } }, { $group: { _id: '$waste_method', weight: { $sum: '$weight.qty' } } }]), used_by: 'Daily compliance digest', updated: ago(12), enabled: 'yes' },
    { name: 'harvest_by_strain', collection: 'fac_harvests', description: 'Wet and dry weight per strain for the Harvests dashboard.', pipeline: pipe([{ $group: { _id: '$strain', wet: { $sum: '$wet_weight.qty' }, dry: { $sum: '$dry_weight.qty' } } }, { $sort: { wet: -1 } }]), used_by: '/DshHarvests', updated: ago(30), enabled: 'yes' },
    { name: 'plants_by_phase', collection: 'fac_plants', description: 'Plant counts by growth phase and room for the Plants dashboard.', pipeline: pipe([{ $match: { IsUsed: { $ne: 'no' } } }, { $group: { _id: { phase: '$phase', room: '$room' }, count: { $sum: 1 } } }]), used_by: '/DshPlants', updated: ago(30), enabled: 'yes' },
    { name: 'receivables_aging', collection: 'tax_receivables', description: 'Open receivables bucketed 0-30, 31-60, 61-90, 90+ days.', pipeline: pipe([{ $match: { status: { $ne: 'p' } } }, { $bucket: { groupBy: '$age_days', boundaries: [0, 31, 61, 91, 10000], output: { total: { $sum: '$amount' } } } }]), used_by: 'Finance reports', updated: ago(55), enabled: 'yes' },
    { name: 'login_summary_daily', collection: 'auth_logins', description: 'Builds sup_login_summary once a day.', pipeline: pipe([{ $group: { _id: { day: { $dateTrunc: { date: '$ts', unit: 'day' } }, email: '$email' }, logins: { $sum: 1 } } }, { $merge: 'sup_login_summary' }]), used_by: 'Login Summary', updated: ago(100), enabled: 'no', IsUsed: 'no' },
  ])

  // ---- Plans, tasks, policy ------------------------------------------------------------------
  out.sup_plans = rows(ctx, 'sup_plans', [
    { name: 'Starter', code: 'starter', monthly: 249, annual: 2490, modules: ['cul', 'sch', 'metrc', 'set', 'help'], max_users: 5, max_facilities: 1, storage_gb: 10, support: 'Email', active: 'yes' },
    { name: 'Grower', code: 'grower', monthly: 699, annual: 6990, modules: ['cul', 'dsh', 'sch', 'metrc', 'oth', 'set', 'help', 'sensors'], max_users: 25, max_facilities: 2, storage_gb: 100, support: 'Business Hours', active: 'yes' },
    { name: 'Distributor', code: 'distributor', monthly: 599, annual: 5990, modules: ['dis', 'dsh', 'sch', 'fin', 'metrc', 'crm', 'oth', 'set', 'help'], max_users: 15, max_facilities: 1, storage_gb: 50, support: 'Business Hours', active: 'yes' },
    { name: 'Enterprise', code: 'enterprise', monthly: 1899, annual: 18990, modules: ['cul', 'dsh', 'sch', 'dis', 'tes', 'fin', 'metrc', 'crm', 'oth', 'ops', 'set', 'help', 'sensors', 'automation', 'sidekick'], max_users: 250, max_facilities: 10, storage_gb: 1000, support: '24/7', active: 'yes' },
    { name: 'Compliance Only', code: 'compliance', monthly: 149, annual: 1490, modules: ['metrc', 'set', 'help'], max_users: 3, max_facilities: 1, storage_gb: 5, support: 'Email', active: 'yes' },
    { name: 'Legacy Basic', code: 'legacy-basic', monthly: 99, annual: 990, modules: ['cul', 'metrc', 'help'], max_users: 3, max_facilities: 1, storage_gb: 2, support: 'Email', active: 'no', IsUsed: 'no' },
  ])

  out.sup_tasks = rows(ctx, 'sup_tasks', [
    { title: 'Review Emerald Bay Cultivators signup', category: 'Onboarding', assignee: 'support@canopy.app', org: 'lobby', priority: 'High', due: ahead(1), status: 'Open', notes: 'Check CA DCC license lookup before approving.' },
    { title: 'Provision Mile High Logistics', category: 'Onboarding', assignee: 'admin@canopy.app', org: 'lobby', priority: 'Normal', due: ahead(2), status: 'In Progress', notes: '' },
    { title: 'Chase METRC key for Cascade Craft Cannabis', category: 'Onboarding', assignee: 'support@canopy.app', org: 'lobby', priority: 'Normal', due: ahead(4), status: 'Blocked', notes: 'Waiting on Oregon OLCC to issue the API key.' },
    { title: 'Fix Harvest weights to METRC failure', category: 'Compliance', assignee: 'admin@canopy.app', org: 'greenleaf', priority: 'Urgent', due: ago(0.5), status: 'In Progress', notes: 'METRC returned 400: plant tag already harvested.' },
    { title: 'Replace Harbor vault scale bridge', category: 'Firmware', assignee: 'support@canopy.app', org: 'harbor', priority: 'High', due: ahead(3), status: 'Open', notes: 'No heartbeat for two days.' },
    { title: 'Roll out canopy-gateway 5.1.0 to Harbor', category: 'Firmware', assignee: 'admin@canopy.app', org: 'harbor', priority: 'Normal', due: ahead(7), status: 'Open', notes: '' },
    { title: 'Renew Google Calendar OAuth token', category: 'Support', assignee: 'support@canopy.app', org: 'greenleaf', priority: 'Low', due: ahead(5), status: 'Open', notes: '' },
    { title: 'Quarterly restore test of nightly backup', category: 'Infrastructure', assignee: 'admin@canopy.app', org: 'all', priority: 'Normal', due: ahead(10), status: 'Open', notes: '' },
    { title: 'Invoice Harbor for extra SMS volume', category: 'Billing', assignee: 'admin@canopy.app', org: 'harbor', priority: 'Low', due: ahead(12), status: 'Open', notes: '' },
    { title: 'Update CA edible limits in cannabis reference', category: 'Compliance', assignee: 'support@canopy.app', org: 'all', priority: 'Normal', due: ago(3), status: 'Done', notes: '' },
    { title: 'Rotate broker TLS certificate', category: 'Infrastructure', assignee: 'admin@canopy.app', org: 'all', priority: 'High', due: ago(8), status: 'Done', notes: '' },
    { title: 'Translate new error messages to Spanish', category: 'Support', assignee: 'support@canopy.app', org: 'all', priority: 'Normal', due: ahead(6), status: 'In Progress', notes: 'Phrase map keys for SPEC §8.' },
  ])

  const pol = (name: string, category: string, value: string, description: string, days: number, enforced = 'yes', extra: Row = {}): Row => ({ name, category, value, description, updated: ago(days), enforced, ...extra })
  out.sup_policy = rows(ctx, 'sup_policy', [
    pol('Password minimum length', 'Password', '8', 'At least 8 characters with one lower-case, one upper-case, one numeral and one special character.', 200, 'yes', { delete: 'no' }),
    pol('Password forbidden characters', 'Password', '" \' ? & / < > and whitespace', 'Passwords may not contain these characters.', 200, 'yes', { delete: 'no' }),
    pol('Idle logout', 'Session', '3600 s', 'Users idle for an hour are logged out.', 200),
    pol('Token refresh', 'Session', '1 retry', 'On 401 the client refreshes the token once and retries once.', 200),
    pol('Edit locked rows', 'Access', 'super only', 'Rows with ed or delete = no can only be changed by super users.', 150),
    pol('Edit created time', 'Access', 'admin, super', 'Only admin and super may edit cts.', 150),
    pol('Tracking credential check', 'Compliance', 'lobby only', 'The METRC credential check applies to the lobby organisation; super skips it.', 150),
    pol('Compliance record retention', 'Data Retention', '7 years', 'Keep tracking, waste and transfer records at least 7 years.', 210),
    pol('Debug log retention', 'Data Retention', '30 days', 'Debug entries older than 30 days are purged.', 90),
    pol('Device firmware signing', 'Device', 'SHA-256', 'Devices install only firmware whose checksum matches the OTA record.', 75),
    pol('Kiosk auto-logout', 'Device', '15 min', 'Kiosk sessions return to the login screen after 15 idle minutes.', 40, 'no'),
  ])

  // ---- Dispatch log --------------------------------------------------------------------------
  const tpl = (i: number) => ctx.id('sup_email_structure', i)
  const dispatch: Row[] = []
  const recips = [
    { to: 'maria.lopez@greenleaffarms.com', org: 'greenleaf' },
    { to: 'devon.walker@greenleaffarms.com', org: 'greenleaf' },
    { to: 'sarah.kim@harbordistribution.com', org: 'harbor' },
    { to: 'lena.ortiz@harbordistribution.com', org: 'harbor' },
    { to: 'daniel@emeraldbaycultivators.com', org: 'lobby' },
  ]
  const emailKinds = [
    { t: 7, subject: 'Daily compliance digest - {facility} - {date}' },
    { t: 6, subject: 'METRC sync errors for {facility}' },
    { t: 0, subject: 'Reset your Canopy password' },
    { t: 8, subject: 'Sensor battery low: gl-th-dry-01' },
    { t: 3, subject: 'Your Canopy account is being processed' },
  ]
  for (let i = 0; i < 16; i++) {
    const r = recips[i % recips.length]
    const k = r.org === 'lobby' ? emailKinds[4] : emailKinds[rng.int(0, 3)]
    const status = rng.pick(['Delivered', 'Delivered', 'Delivered', 'Sent', 'Bounced', 'Delivered'])
    dispatch.push({
      sent: hoursAgo(i * 7 + rng.int(0, 6)), channel: 'email', recipient: r.to, template: tpl(k.t), subject: k.subject.replace('{facility}', r.org === 'harbor' ? 'Harbor Distribution' : 'Greenleaf Farms').replace('{date}', ago(i * 0.3).slice(0, 10)),
      org: r.org, status, provider_id: `sg_${rng.int(100000, 999999)}`, error: status === 'Bounced' ? '550 5.1.1 mailbox unavailable' : '',
    })
  }
  dispatch.push(
    { sent: hoursAgo(3), channel: 'sms', recipient: '+1 (303) 555-0122', template: '', subject: 'Your order HD-10482 is out for delivery.', org: 'harbor', status: 'Delivered', provider_id: 'SM8f21c0', error: '' },
    { sent: hoursAgo(5), channel: 'sms', recipient: '+1 (707) 555-0190', template: '', subject: 'Planting 1A4 Blue Dream in Flower Room 2 is due for harvest.', org: 'greenleaf', status: 'Failed', provider_id: 'SM8f20aa', error: '21610 unsubscribed recipient' },
    { sent: hoursAgo(1), channel: 'mqtt', recipient: 'greenleaf/request/gl-scale-01', template: '', subject: 'read_weight user', org: 'greenleaf', status: 'Sent', provider_id: '', error: '' },
    { sent: hoursAgo(0.5), channel: 'push', recipient: 'james.chen@greenleaffarms.com', template: '', subject: 'Flower Room 2 RH above warning level', org: 'greenleaf', status: 'Delivered', provider_id: 'fcm-7723', error: '' },
  )
  out.sup_dispatch_log = rows(ctx, 'sup_dispatch_log', dispatch)

  // ---- App workflows, routing, documents, dashboards -----------------------------------------
  const steps = (...list: [string, string][]) => list.map(([name, role], i) => ({ step: i + 1, name, role }))
  out.sup_app_workflows = rows(ctx, 'sup_app_workflows', [
    { name: 'Plant to Harvest', module: 'cul', description: 'Move flowering plants to a harvest batch and record wet weight.', steps: steps(['Select plants', 'user'], ['Weigh wet', 'user'], ['Review', 'manager'], ['Post to METRC', 'compliance']), version: '2.1', updated: ago(30), enabled: 'yes' },
    { name: 'Destroy Plants', module: 'cul', description: 'Mark plants dead with waste method, mix material and dead weight.', steps: steps(['Mark as dead', 'user'], ['Weigh waste', 'user'], ['Witness', 'compliance'], ['Post to METRC', 'compliance']), version: '1.4', updated: ago(52), enabled: 'yes' },
    { name: 'Package Trim', module: 'cul', description: 'Weigh trim into bins and create packages.', steps: steps(['Scan bin', 'user'], ['Weigh', 'user'], ['Create package', 'manager']), version: '1.2', updated: ago(60), enabled: 'yes' },
    { name: 'Order Fulfilment', module: 'dis', description: 'Pick, pack, manifest and deliver a wholesale order.', steps: steps(['Pick', 'user'], ['Pack', 'user'], ['Manifest', 'compliance'], ['Deliver', 'user'], ['Invoice', 'manager']), version: '3.0', updated: ago(14), enabled: 'yes' },
    { name: 'Receive Transfer', module: 'dis', description: 'Accept an incoming METRC transfer into inventory.', steps: steps(['Check manifest', 'user'], ['Weigh and count', 'user'], ['Accept in METRC', 'compliance']), version: '1.1', updated: ago(45), enabled: 'yes' },
    { name: 'Lab Sample Submission', module: 'tes', description: 'Pull a sample, send to lab and attach the COA.', steps: steps(['Pull sample', 'user'], ['Ship to lab', 'user'], ['Attach COA', 'compliance']), version: '1.0', updated: ago(90), enabled: 'yes' },
    { name: 'Payment Reconciliation', module: 'fin', description: 'Match payments to receivables and mark tax state paid.', steps: steps(['Import payments', 'manager'], ['Match', 'manager'], ['Approve', 'admin']), version: '1.3', updated: ago(70), enabled: 'yes' },
    { name: 'Visitor Check-in (legacy)', module: 'oth', description: 'Old visitor log flow, replaced by face recognition check-in.', steps: steps(['Sign in', 'kiosk'], ['Badge', 'user']), version: '0.9', updated: ago(400), enabled: 'no', IsUsed: 'no' },
  ])
  const wf = (i: number) => ctx.id('sup_app_workflows', i)
  out.sup_workflow_table = rows(ctx, 'sup_workflow_table', [
    { table: 'fac_plants', event: 'update', workflow: wf(0), module: 'cul', condition: "record.phase === 'Harvested'", enabled: 'yes' },
    { table: 'fac_plants', event: 'update', workflow: wf(1), module: 'cul', condition: "record.mark_as_dead === 'yes'", enabled: 'yes' },
    { table: 'fac_harvests', event: 'create', workflow: wf(0), module: 'cul', condition: 'true', enabled: 'yes' },
    { table: 'fac_trim', event: 'create', workflow: wf(2), module: 'cul', condition: 'record.weight.qty > 0', enabled: 'yes' },
    { table: 'fac_waste', event: 'create', workflow: wf(1), module: 'cul', condition: "record.source === 'plant'", enabled: 'yes' },
    { table: 'dis_orders', event: 'create', workflow: wf(3), module: 'dis', condition: 'true', enabled: 'yes' },
    { table: 'dis_inventory', event: 'create', workflow: wf(4), module: 'dis', condition: 'record.transfer_id != null', enabled: 'yes' },
    { table: 'tes_inventory', event: 'create', workflow: wf(5), module: 'tes', condition: 'true', enabled: 'yes' },
    { table: 'fin_payments', event: 'create', workflow: wf(6), module: 'fin', condition: 'true', enabled: 'yes' },
    { table: 'vis_log', event: 'create', workflow: wf(7), module: 'oth', condition: 'true', enabled: 'no', IsUsed: 'no' },
  ])
  const route = (w: number, from_step: string, to_step: string, condition: string, role: string, sla_h: number, notify = 'yes'): Row => ({ workflow: wf(w), from_step, to_step, condition, role, sla_h, notify })
  out.sup_workflow_routing = rows(ctx, 'sup_workflow_routing', [
    route(0, 'Select plants', 'Weigh wet', 'plants.length > 0', 'user', 4, 'no'),
    route(0, 'Weigh wet', 'Review', 'wet_weight.qty > 0', 'manager', 8),
    route(0, 'Review', 'Post to METRC', "review === 'approved'", 'compliance', 24),
    route(1, 'Mark as dead', 'Weigh waste', "mark_as_dead === 'yes'", 'user', 2, 'no'),
    route(1, 'Weigh waste', 'Witness', 'dead_weight.qty > 0', 'compliance', 24),
    route(1, 'Witness', 'Post to METRC', 'witness != null', 'compliance', 48),
    route(3, 'Pick', 'Pack', 'allPicked', 'user', 4, 'no'),
    route(3, 'Pack', 'Manifest', 'true', 'compliance', 8),
    route(3, 'Manifest', 'Deliver', 'manifest != null', 'user', 24),
    route(3, 'Deliver', 'Invoice', "status === 'Delivered'", 'manager', 24),
    route(4, 'Weigh and count', 'Accept in METRC', 'variancePct <= 2', 'compliance', 4),
    route(6, 'Match', 'Approve', 'unmatched === 0', 'admin', 72),
  ])

  out.sup_app_documents = rows(ctx, 'sup_app_documents', [
    { name: 'Harvest Batch Record', module: 'cul', doc_type: 'Report', template: fileRef(PLATFORM_ORG, 'templates', 'harvest-batch-record.pdf'), version: '2.0', orgs: ['greenleaf'], updated: ago(30), enabled: 'yes' },
    { name: 'Plant Destruction Log', module: 'cul', doc_type: 'Form', template: fileRef(PLATFORM_ORG, 'templates', 'plant-destruction-log.pdf'), version: '1.3', orgs: ['greenleaf'], updated: ago(52), enabled: 'yes' },
    { name: 'Package Label 4x2', module: 'cul', doc_type: 'Label', template: fileRef(PLATFORM_ORG, 'templates', 'package-label-4x2.pdf'), version: '3.1', orgs: ['greenleaf', 'harbor'], updated: ago(33), enabled: 'yes' },
    { name: 'Shipping Manifest', module: 'dis', doc_type: 'Manifest', template: fileRef(PLATFORM_ORG, 'templates', 'shipping-manifest.pdf'), version: '2.4', orgs: ['harbor'], updated: ago(14), enabled: 'yes' },
    { name: 'Sales Invoice', module: 'fin', doc_type: 'Report', template: fileRef(PLATFORM_ORG, 'templates', 'sales-invoice.pdf'), version: '1.8', orgs: ['harbor'], updated: ago(70), enabled: 'yes' },
    { name: 'Certificate of Analysis Cover', module: 'tes', doc_type: 'Certificate', template: fileRef(PLATFORM_ORG, 'templates', 'coa-cover.pdf'), version: '1.0', orgs: ['greenleaf', 'harbor'], updated: ago(90), enabled: 'yes' },
    { name: 'Waste Disposal SOP', module: 'oth', doc_type: 'SOP', template: fileRef(PLATFORM_ORG, 'templates', 'waste-disposal-sop.pdf'), version: '4.0', orgs: ['greenleaf'], updated: ago(95), enabled: 'yes' },
    { name: 'Visitor Badge (legacy)', module: 'oth', doc_type: 'Label', template: fileRef(PLATFORM_ORG, 'templates', 'visitor-badge.pdf'), version: '0.9', orgs: ['greenleaf', 'harbor', 'lobby'], updated: ago(400), enabled: 'no', IsUsed: 'no' },
  ])

  out.sup_app_dashboards = rows(ctx, 'sup_app_dashboards', [
    { name: 'Plants Dashboard', route: '/DshPlants', module: 'dsh', collection: 'fac_plants', widgets: ['KPI Cards', 'Bar Chart', 'Table'], refresh_s: 300, enabled: 'yes' },
    { name: 'Harvests Dashboard', route: '/DshHarvests', module: 'dsh', collection: 'fac_harvests', widgets: ['KPI Cards', 'Bar Chart', 'Line Chart'], refresh_s: 300, enabled: 'yes' },
    { name: 'Compliance Dashboard', route: '/DshCompliance', module: 'dsh', collection: 'fac_waste', widgets: ['KPI Cards', 'Pie Chart', 'Table'], refresh_s: 600, enabled: 'yes' },
    { name: 'Cultivation Dashboard', route: '/DshCultivation', module: 'dsh', collection: 'fac_plantings', widgets: ['KPI Cards', 'Line Chart', 'Table'], refresh_s: 300, enabled: 'yes' },
    { name: 'Sensors', route: '/DshSensors', module: 'sensors', collection: 'sen_devices', widgets: ['Gauges', 'Line Chart'], refresh_s: 30, enabled: 'yes' },
    { name: 'Sales Map (beta)', route: '/DshSales', module: 'dis', collection: 'dis_orders', widgets: ['Map', 'KPI Cards'], refresh_s: 900, enabled: 'no' },
  ])

  out.sup_table_remove = rows(ctx, 'sup_table_remove', [
    { collection: 'vis_log_2019', org: 'greenleaf', reason: 'Pre-migration visitor log copy; data is in vis_log.', requested_by: 'maria.lopez@greenleaffarms.com', requested: ago(40), scheduled: ago(33), records: 1842, backup: 'yes', status: 'Done' },
    { collection: 'tmp_import_inventory', org: 'harbor', reason: 'Leftover CSV import staging table.', requested_by: 'sarah.kim@harbordistribution.com', requested: ago(9), scheduled: ago(2), records: 311, backup: 'yes', status: 'Done' },
    { collection: 'crm_campaign_drafts', org: 'lobby', reason: 'Trial account test data.', requested_by: 'support@canopy.app', requested: ago(3), scheduled: ahead(4), records: 12, backup: 'no', status: 'Approved' },
    { collection: 'fac_plants', org: 'greenleaf', reason: 'Asked to reset plants; rejected because METRC history must be kept.', requested_by: 'james.chen@greenleaffarms.com', requested: ago(15), scheduled: '', records: 5120, backup: 'no', status: 'Rejected' },
    { collection: 'sen_readings_2024', org: 'greenleaf', reason: 'Sensor readings older than two years, rolled up hourly.', requested_by: 'admin@canopy.app', requested: ago(1), scheduled: ahead(6), records: 2_480_000, backup: 'yes', status: 'Requested' },
  ])

  // ---- Debug log -----------------------------------------------------------------------------
  const dbg = (h: number, level: string, service: string, org: string, user: string, message: string, context: Row): Row => ({
    time: hoursAgo(h), level, service, org, user, message, context: JSON.stringify(context, null, 2),
  })
  out.sup_debug = rows(ctx, 'sup_debug', [
    dbg(0.2, 'info', 'api', 'greenleaf', 'james.chen@greenleaffarms.com', 'POST /misc/dbops?c=fac_plants&op=pipe 200 in 84 ms', { rows: 10, total: 1264 }),
    dbg(0.4, 'warn', 'broker', 'harbor', '', 'Device hb-scale-01 missed 3 keepalives', { topic: 'harbor/bcast/hb-scale-01', lastSeen: '48h' }),
    dbg(0.9, 'error', 'compserver', 'harbor', '', 'METRC CO returned 503 for GET /transfers/v1/incoming', { attempt: 3, retryInS: 300 }),
    dbg(1.3, 'debug', 'auth', 'lobby', 'daniel@emeraldbaycultivators.com', 'Credential check: error_lic = no, error_metrc = no', { state: 'CA' }),
    dbg(2.1, 'info', 'auth', 'greenleaf', 'maria.lopez@greenleaffarms.com', 'POST /auth/refresh issued new access token', { expiresIn: 3600 }),
    dbg(3.6, 'warn', 'api', 'greenleaf', 'ana.ruiz@greenleaffarms.com', 'Rate limit reached: 8 requests per 500 ms', { queued: 4 }),
    dbg(5.2, 'error', 'compserver', 'greenleaf', '', 'POST /plants/v1/harvestplants 400: plant already harvested', { tag: '1A4060300003B5E000012345' }),
    dbg(7.8, 'info', 'files', 'harbor', 'marcus.bell@harbordistribution.com', 'Uploaded manifests/manifest-0004822.pdf (101 KB)', { subdir: 'manifests' }),
    dbg(11, 'debug', 'api', 'greenleaf', 'trimroom.kiosk@greenleaffarms.com', 'Scale reading received from gl-scale-01', { weight: 2.35, unit: 'lb' }),
    dbg(14, 'warn', 'api', 'greenleaf', 'trimroom.kiosk@greenleaffarms.com', 'Scale read timeout after 10 s; failure sound sent', { device: 'gl-scale-01' }),
    dbg(20, 'info', 'worker', 'all', '', 'Nightly database backup finished', { sizeGb: 18.4, durationS: 872 }),
    dbg(26, 'error', 'login', 'lobby', 'unknown@example.com', 'Login failed: user not found', { ip: '203.0.113.77' }),
    dbg(31, 'info', 'broker', 'all', '', 'Broker restarted after TLS certificate rotation', { clients: 142 }),
    dbg(44, 'debug', 'api', 'harbor', 'sarah.kim@harbordistribution.com', 'GET /dt/v1/dis_orders?count', { count: 482 }),
    dbg(60, 'warn', 'auth', 'greenleaf', 'ana.ruiz@greenleaffarms.com', 'Idle logout after 3600 s', {}),
  ])

  // ---- METRC defaults ------------------------------------------------------------------------
  const md = (name: string, value: string, category: string, state: string, description: string, extra: Row = {}): Row => ({ name, value, category, state, description, ...extra })
  out.metrc_defaults = rows(ctx, 'metrc_defaults', [
    md('WeightUnit', 'Grams', 'Units', 'ALL', 'Default unit of weight for packages and harvests.'),
    md('CountUnit', 'Each', 'Units', 'ALL', 'Default unit for counted items.'),
    md('VolumeUnit', 'Milliliters', 'Units', 'ALL', 'Default unit of volume.'),
    md('HarvestWasteType', 'Plant Material', 'Waste', 'ALL', 'Waste type used when logging harvest waste.'),
    md('WasteMethod', 'Grinder', 'Waste', 'ALL', 'Default method for rendering plant waste unusable.'),
    md('MixMaterial', 'Soil', 'Waste', 'CA', 'Material mixed with waste (50/50) before disposal.'),
    md('DryingLocation', 'Dry Room', 'Harvest', 'ALL', 'Room used when creating a harvest batch.'),
    md('PackageType', 'Product', 'Packages', 'ALL', 'Package type when creating packages.'),
    md('PlantBatchType', 'Clone', 'Plants', 'ALL', 'Batch type when creating plantings from mothers.'),
    md('GrowthPhaseOnCreate', 'Vegetative', 'Plants', 'ALL', 'Growth phase assigned to new plants.'),
    md('BatchSizeLimit', '100', 'Sync', 'ALL', 'Objects per METRC POST; larger jobs are split.', { ed: 'no', delete: 'no' }),
    md('SyncIntervalMinutes', '30', 'Sync', 'ALL', 'Minutes between package syncs during business hours.'),
    md('RequiredLabTests', 'Cannabinoids, Microbials, Heavy Metals, Pesticides, Residual Solvents, Mycotoxins, Moisture', 'Lab Tests', 'CA', 'Tests a package needs before it can be transferred for sale.'),
  ])

  // ---- Servers and server classes ------------------------------------------------------------
  out.sup_server_classes = rows(ctx, 'sup_server_classes', [
    { name: 'Small', instance: 't3.medium', vcpu: 2, memory_gb: 4, disk_gb: 40, purpose: 'Login, auth and job workers', monthly_cost: 30.37 },
    { name: 'Standard', instance: 'm6i.large', vcpu: 2, memory_gb: 8, disk_gb: 80, purpose: 'API and file servers', monthly_cost: 70.08 },
    { name: 'Large', instance: 'm6i.xlarge', vcpu: 4, memory_gb: 16, disk_gb: 160, purpose: 'Busy API servers and broker', monthly_cost: 140.16 },
    { name: 'Database', instance: 'r6i.xlarge', vcpu: 4, memory_gb: 32, disk_gb: 500, purpose: 'PostgreSQL primary and replica', monthly_cost: 183.96 },
    { name: 'Edge Gateway', instance: 'Raspberry Pi CM4', vcpu: 4, memory_gb: 4, disk_gb: 32, purpose: 'On-site device gateway', monthly_cost: 0 },
  ])
  const cls = (i: number) => ctx.id('sup_server_classes', i)
  const srv = (hostname: string, c: number, role: string, region: string, ip: string, os: string, org: string, status: string, days: number, healthy = 'yes'): Row => ({
    hostname, class: cls(c), role, region, ip, os, org, status, launched: ago(days), healthy,
  })
  out.sup_servers = rows(ctx, 'sup_servers', [
    srv('login-01.canopy.internal', 0, 'login', 'us-west-2', '10.20.1.11', 'Ubuntu 24.04 LTS', 'all', 'Running', 210),
    srv('auth-01.canopy.internal', 0, 'auth', 'us-west-2', '10.20.1.12', 'Ubuntu 24.04 LTS', 'all', 'Running', 210),
    srv('api-01.canopy.internal', 2, 'api', 'us-west-2', '10.20.2.21', 'Ubuntu 24.04 LTS', 'all', 'Running', 120),
    srv('api-02.canopy.internal', 2, 'api', 'us-west-2', '10.20.2.22', 'Ubuntu 24.04 LTS', 'all', 'Running', 120),
    srv('api-03.canopy.internal', 1, 'api', 'us-east-1', '10.30.2.21', 'Ubuntu 24.04 LTS', 'harbor', 'Provisioning', 0.2, 'no'),
    srv('files-01.canopy.internal', 1, 'files', 'us-west-2', '10.20.3.31', 'Ubuntu 24.04 LTS', 'all', 'Running', 300),
    srv('mqtt-01.canopy.internal', 2, 'broker', 'us-west-2', '10.20.4.41', 'Ubuntu 24.04 LTS', 'all', 'Running', 31, 'no'),
    srv('db-01.canopy.internal', 3, 'database', 'us-west-2', '10.20.5.51', 'Ubuntu 24.04 LTS', 'all', 'Running', 30),
    srv('db-02.canopy.internal', 3, 'database', 'us-east-2', '10.40.5.51', 'Ubuntu 24.04 LTS', 'all', 'Running', 30),
    srv('jobs-01.canopy.internal', 0, 'worker', 'us-west-2', '10.20.6.61', 'Ubuntu 24.04 LTS', 'all', 'Running', 90),
    srv('gl-gw-01', 4, 'worker', 'us-west-2', '192.168.10.2', 'Raspberry Pi OS 12', 'greenleaf', 'Running', 150),
    srv('hb-gw-01', 4, 'worker', 'us-west-2', '192.168.20.2', 'Raspberry Pi OS 12', 'harbor', 'Running', 150),
    srv('api-legacy.canopy.internal', 1, 'api', 'us-east-1', '10.30.2.9', 'Ubuntu 20.04 LTS', 'all', 'Stopped', 900, 'no'),
  ])
  const legacy = out.sup_servers[out.sup_servers.length - 1]
  legacy.IsUsed = 'no'

  // ---- Forms, menus, entitlements, face recognition ------------------------------------------
  const layout = (fields: string[]) => JSON.stringify({ columns: 2, sections: [{ title: 'Details', fields }] }, null, 2)
  out.sup_forms = rows(ctx, 'sup_forms', [
    { name: 'planting_create', title: 'New Planting', collection: 'fac_plantings', module: 'cul', fields: 6, layout: layout(['strain', 'room', 'mtag', 'type', 'origin', 'orig']), version: '2.0', enabled: 'yes' },
    { name: 'plant_destroy', title: 'Destroy Plant', collection: 'fac_plants', module: 'cul', fields: 4, layout: layout(['mark_as_dead', 'waste_method', 'mix_material', 'dead_weight']), version: '1.4', enabled: 'yes' },
    { name: 'harvest_weigh', title: 'Record Wet Weight', collection: 'fac_harvests', module: 'cul', fields: 4, layout: layout(['strain', 'room', 'wet_weight', 'harvested']), version: '1.1', enabled: 'yes' },
    { name: 'order_create', title: 'Create Order', collection: 'dis_cart', module: 'dis', fields: 5, layout: layout(['client', 'items', 'delivery_date', 'payment_terms', 'notes']), version: '3.0', enabled: 'yes' },
    { name: 'visitor_checkin', title: 'Visitor Check-in', collection: 'vis_log', module: 'oth', fields: 5, layout: layout(['name', 'company', 'host', 'purpose', 'id_checked']), version: '1.2', enabled: 'yes' },
    { name: 'metrc_credentials', title: 'METRC Credentials', collection: 'temp_credentials', module: 'metrc', fields: 4, layout: layout(['state', 'license', 'metrc', 'nometrc']), version: '1.0', enabled: 'yes', delete: 'no' },
    { name: 'support_ticket', title: 'Support Ticket', collection: 'sup_tasks', module: 'help', fields: 3, layout: layout(['title', 'priority', 'notes']), version: '1.0', enabled: 'yes' },
  ])

  const menu = (org: string, module: string, group: string, title: string, routePath: string, pos: number, visible = 'yes'): Row => ({ org, module, group, title, route: routePath, pos, visible })
  out.sup_org_menus = rows(ctx, 'sup_org_menus', [
    menu('greenleaf', 'cul', 'Cultivation', 'Workflows', '/CulWorkflows', 1),
    menu('greenleaf', 'cul', 'Cultivation', 'Plantings', '/CulPlantings', 2),
    menu('greenleaf', 'cul', 'Cultivation', 'Plants', '/culPlants', 3),
    menu('greenleaf', 'cul', 'Cultivation', 'Harvests', '/CulHarvest', 4),
    menu('greenleaf', 'cul', 'Cultivation', 'Waste', '/culWaste', 5),
    menu('greenleaf', 'dsh', 'Dashboards', 'Plants Dashboard', '/DshPlants', 10),
    menu('greenleaf', 'sensors', 'Dashboards', 'Sensors', '/DshSensors', 11),
    menu('greenleaf', 'metrc', 'Metrc', 'Packages', '/MetrcPackages', 20),
    menu('greenleaf', 'set', 'Facilities', 'Rooms', '/SetRooms', 30),
    menu('greenleaf', 'set', 'Facilities', 'Strains', '/SetStrain', 31),
    menu('harbor', 'dis', 'Distribution', 'Workflows', '/DisWorkflows', 1),
    menu('harbor', 'dis', 'Distribution', 'Create Order', '/DisCart', 2),
    menu('harbor', 'dis', 'Distribution', 'Orders', '/DisSales', 3),
    menu('harbor', 'fin', 'Finance', 'Receivables', '/TaxReceivables', 10),
    menu('harbor', 'crm', 'CRM', 'Sales Pipeline', '/CrmSalesPipeline', 20),
    menu('harbor', 'sensors', 'Dashboards', 'Sensors', '/DshSensors', 30, 'no'),
    menu('lobby', 'help', 'Help', 'Tutorials', '/HelpTutorials', 1),
  ])

  const plan = (i: number) => ctx.id('sup_plans', i)
  const ent = (email: string, org: string, facility: string, role: string, modules: string[], p: number, days: number, active = 'yes', expires = ''): Row => ({
    email, org, facility, role, modules, plan: plan(p), granted: ago(days), expires, active,
  })
  const GROWER = ['cul', 'dsh', 'sch', 'metrc', 'oth', 'set', 'help', 'sensors']
  const DIST = ['dis', 'dsh', 'sch', 'fin', 'metrc', 'crm', 'oth', 'set', 'help']
  out.sup_entitlements = rows(ctx, 'sup_entitlements', [
    ent('maria.lopez@greenleaffarms.com', 'greenleaf', 'greenleaf', 'admin', GROWER, 1, 310),
    ent('james.chen@greenleaffarms.com', 'greenleaf', 'greenleaf', 'manager', GROWER, 1, 300),
    ent('devon.walker@greenleaffarms.com', 'greenleaf', 'greenleaf', 'compliance', ['cul', 'dsh', 'metrc', 'oth', 'help'], 1, 250),
    ent('ana.ruiz@greenleaffarms.com', 'greenleaf', 'greenleaf', 'user', ['cul', 'sch', 'help'], 1, 120),
    ent('trimroom.kiosk@greenleaffarms.com', 'greenleaf', 'greenleaf', 'kiosk', ['cul'], 1, 90),
    ent('maria.lopez@greenleaffarms.com', 'greenleaf', 'harbor', 'user', ['dis', 'help'], 2, 60, 'yes', ahead(120)),
    ent('sarah.kim@harbordistribution.com', 'harbor', 'harbor', 'admin', DIST, 2, 280),
    ent('marcus.bell@harbordistribution.com', 'harbor', 'harbor', 'user', ['dis', 'sch', 'help'], 2, 200),
    ent('lena.ortiz@harbordistribution.com', 'harbor', 'harbor', 'compliance', ['dis', 'metrc', 'fin', 'help'], 2, 150),
    ent('daniel@emeraldbaycultivators.com', 'lobby', 'lobby', 'user', ['help'], 0, 1, 'yes', ahead(14)),
    ent('former.trimmer@greenleaffarms.com', 'greenleaf', 'greenleaf', 'user', ['cul'], 1, 400, 'no', ago(35)),
  ])

  const face = (name: string, email: string, org: string, days: number, lastH: number, status: string, consent = 'yes'): Row => ({
    name, email, org, photo: fileRef(org, 'faces', `${email.split('@')[0]}.png`), face_id: `fr_${Array.from({ length: 16 }, () => '0123456789abcdef'[rng.int(0, 15)]).join('')}`,
    threshold: rng.pick([0.8, 0.82, 0.85]), enrolled: ago(days), last_match: status === 'Enrolled' ? hoursAgo(lastH) : '', consent, status,
  })
  out.sup_face_recognition = rows(ctx, 'sup_face_recognition', [
    face('Maria Lopez', 'maria.lopez@greenleaffarms.com', 'greenleaf', 200, 3, 'Enrolled'),
    face('James Chen', 'james.chen@greenleaffarms.com', 'greenleaf', 200, 5, 'Enrolled'),
    face('Devon Walker', 'devon.walker@greenleaffarms.com', 'greenleaf', 180, 26, 'Enrolled'),
    face('Ana Ruiz', 'ana.ruiz@greenleaffarms.com', 'greenleaf', 110, 4, 'Enrolled'),
    face('Sarah Kim', 'sarah.kim@harbordistribution.com', 'harbor', 150, 7, 'Enrolled'),
    face('Marcus Bell', 'marcus.bell@harbordistribution.com', 'harbor', 140, 2, 'Enrolled'),
    face('Lena Ortiz', 'lena.ortiz@harbordistribution.com', 'harbor', 3, 0, 'Pending'),
    face('Former Trimmer', 'former.trimmer@greenleaffarms.com', 'greenleaf', 390, 0, 'Revoked', 'no'),
  ])
  out.sup_face_recognition[7].IsUsed = 'no'

  return out
}
