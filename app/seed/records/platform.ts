/**
 * Demo records of the platform (Super Admin) collections, held by the platform organisation
 * 'auth'. Part 1 here; ./platform-2 (plans, workflows, servers, ...) and ./platform-3 (states,
 * dictionary, cannabis limits, phrase map) are merged in by seedPlatformRecords.
 */
import { PLATFORM_ORG } from '../../route-map'
import { clock, fileRef, rowsOf, type SeedCtx, type SeedRecords } from '../kit'
import { seedPlatformRecords2 } from './platform-2'
import { seedPlatformRecords3 } from './platform-3'


type Row = Record<string, unknown>
const rows = rowsOf
const DAY = 86_400_000
const HOUR = 3_600_000

export function seedPlatformRecords(ctx: SeedCtx): SeedRecords {
  const { rng } = ctx
  const { ago, ahead, hoursAgo } = clock(ctx)
  const t0 = ctx.now.getTime()
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[rng.int(0, 15)]).join('')
  const planId = (i: number) => ctx.id('sup_plans', i)
  const out: SeedRecords = {}

  // ---- Orchestration -------------------------------------------------------------------------
  out.sup_orchestration = rows(ctx, 'sup_orchestration', [
    { name: 'METRC nightly sync - Greenleaf', description: 'Pulls active packages, plant batches and harvests from METRC California and reconciles them with the facility tables.', org: 'greenleaf', trigger: 'Schedule', schedule: '0 2 * * *', event: '', last_run: ago(0.54), next_run: ahead(0.46), last_result: 'Success', duration_s: rng.int(140, 260), enabled: 'yes' },
    { name: 'METRC package sync - Harbor', description: 'Pulls active and incoming transfer packages from METRC Colorado every 30 minutes during business hours.', org: 'harbor', trigger: 'Schedule', schedule: '*/30 6-20 * * 1-6', event: '', last_run: hoursAgo(0.3), next_run: ahead(0.01), last_result: 'Success', duration_s: rng.int(20, 55), enabled: 'yes' },
    { name: 'Sensor data rollup', description: 'Aggregates raw sensor readings into hourly averages and flags values above the dictionary warn level.', org: 'all', trigger: 'Schedule', schedule: '5 * * * *', event: '', last_run: hoursAgo(0.9), next_run: ahead(0.005), last_result: 'Success', duration_s: rng.int(8, 20), enabled: 'yes' },
    { name: 'Daily compliance digest', description: 'Emails admins a summary of the last 24 hours of waste, harvests and METRC sync errors.', org: 'all', trigger: 'Schedule', schedule: '0 7 * * *', event: '', last_run: ago(0.33), next_run: ahead(0.67), last_result: 'Success', duration_s: rng.int(4, 12), enabled: 'yes' },
    { name: 'Harvest weights to METRC', description: 'When a harvest record is saved with a wet weight, posts the harvested plants to METRC.', org: 'greenleaf', trigger: 'Event', schedule: '', event: 'greenleaf/dtupdates:fac_harvests', last_run: ago(2.2), next_run: '', last_result: 'Failed', duration_s: 6, enabled: 'yes' },
    { name: 'Low battery device alerts', description: 'Sends a Slack message when a sensor reports battery below the dictionary low threshold.', org: 'all', trigger: 'Event', schedule: '', event: '+/bcast/+', last_run: ago(1.1), next_run: '', last_result: 'Success', duration_s: 1, enabled: 'yes' },
    { name: 'New account provisioning', description: 'Creates the organisation, default schemas and provisions when a new account is approved.', org: 'lobby', trigger: 'Webhook', schedule: '', event: 'POST /hooks/new-account', last_run: ago(4.7), next_run: '', last_result: 'Success', duration_s: rng.int(30, 90), enabled: 'yes' },
    { name: 'Nightly database backup', description: 'Snapshot of all organisation databases to encrypted object storage, kept 35 days.', org: 'all', trigger: 'Schedule', schedule: '30 3 * * *', event: '', last_run: ago(0.48), next_run: ahead(0.52), last_result: 'Success', duration_s: rng.int(600, 1100), enabled: 'yes' },
    { name: 'Orphaned file cleanup', description: 'Removes uploaded files no record points to after 30 days.', org: 'all', trigger: 'Schedule', schedule: '0 4 * * 0', event: '', last_run: ago(4.5), next_run: ahead(2.5), last_result: 'Skipped', duration_s: 0, enabled: 'no', IsUsed: 'no' },
    { name: 'Release notes broadcast', description: 'Publishes the latest release notes to every organisation as a global message.', org: 'all', trigger: 'Manual', schedule: '', event: '', last_run: ago(19), next_run: '', last_result: 'Success', duration_s: 3, enabled: 'yes' },
  ])
  const orch = (i: number) => ctx.id('sup_orchestration', i)
  const node = (o: number, seq: number, name: string, node_type: string, config: Row, on_error = 'Stop', timeout_s = 30, retries = 0): Row => ({
    orchestration: orch(o), seq, name, node_type, config: JSON.stringify(config, null, 2), timeout_s, retries, on_error, enabled: 'yes',
  })
  out.sup_orchestration_nodes = rows(ctx, 'sup_orchestration_nodes', [
    node(0, 1, 'Fetch active packages', 'METRC API', { method: 'GET', path: '/packages/v1/active', state: 'CA', pageSize: 100 }, 'Retry', 60, 3),
    node(0, 2, 'Fetch active plant batches', 'METRC API', { method: 'GET', path: '/plantbatches/v1/active', state: 'CA' }, 'Retry', 60, 3),
    node(0, 3, 'Upsert METRC tables', 'DB Query', { op: 'bulkUpsert', collections: ['metrc_packages', 'metrc_plant_batches'], key: 'Label' }),
    node(0, 4, 'Email sync errors', 'Email', { template: 'metrc_sync_error', to: 'admins' }, 'Continue'),
    node(1, 1, 'Fetch incoming transfers', 'METRC API', { method: 'GET', path: '/transfers/v1/incoming', state: 'CO' }, 'Retry', 60, 3),
    node(1, 2, 'Map packages to inventory', 'Transform', { from: 'metrc_packages', to: 'dis_inventory', unitMap: { Grams: 'g', Pounds: 'lb', Each: 'units' } }),
    node(1, 3, 'Notify table change', 'MQTT Publish', { topic: 'harbor/dtupdates', payload: 'dis_inventory' }, 'Continue', 5),
    node(2, 1, 'Hourly averages', 'DB Query', { op: 'pipe', pipeline: 'sensor_hourly_rollup' }, 'Stop', 120),
    node(2, 2, 'Above warn threshold?', 'Condition', { expr: 'value > dictionary[code].warn' }),
    node(2, 3, 'Raise alert', 'MQTT Publish', { topic: '{org}/notification/{uid}', payload: '{alertId}' }, 'Continue', 5),
    node(3, 1, 'Collect last 24 h', 'DB Query', { op: 'pipe', pipeline: 'compliance_digest' }, 'Stop', 90),
    node(3, 2, 'Render digest', 'Transform', { template: 'daily_compliance_digest' }),
    node(3, 3, 'Send digest', 'Email', { template: 'daily_compliance_digest', to: 'role:admin' }, 'Retry', 30, 2),
    node(4, 1, 'Has wet weight?', 'Condition', { expr: 'record.wet_weight.qty > 0' }),
    node(4, 2, 'Harvest plants', 'METRC API', { method: 'POST', path: '/plants/v1/harvestplants', state: 'CA', batch: 100 }, 'Notify', 60, 1),
    node(4, 3, 'Wait for METRC', 'Delay', { seconds: 15 }, 'Continue', 20),
    node(4, 4, 'Store METRC harvest id', 'DB Query', { op: 'update', collection: 'fac_harvests', set: 'metrc_id' }),
  ])

  // ---- Accounts and provisions ---------------------------------------------------------------
  out.sup_new_accounts = rows(ctx, 'sup_new_accounts', [
    { company: 'Emerald Bay Cultivators', contact: 'Daniel Reyes', email: 'daniel@emeraldbaycultivators.com', phone: '(707) 555-0142', state: 'CA', license: 'CCL22-0007315', facility_type: 'Cultivation', plan: planId(1), requested: ago(1.2), status: 'Pending', eula: 'yes', notes: 'Two greenhouses in Humboldt County, ~8,000 sq ft canopy.' },
    { company: 'Mile High Logistics', contact: 'Priya Shah', email: 'priya@milehighlogistics.co', phone: '(303) 555-0178', state: 'CO', license: '403-01288', facility_type: 'Distribution', plan: planId(2), requested: ago(3.5), status: 'Approved', eula: 'yes', notes: 'Transporter licence; wants manifests and QuickBooks.' },
    { company: 'Cascade Craft Cannabis', contact: 'Tom Lindqvist', email: 'tom@cascadecraft.com', phone: '(541) 555-0119', state: 'OR', license: '020-10045821C', facility_type: 'Cultivation', plan: planId(1), requested: ago(5.1), status: 'Awaiting Credentials', eula: 'yes', notes: 'METRC API key not yet issued by the state.' },
    { company: 'Great Lakes Provisions', contact: 'Alicia Moreno', email: 'amoreno@greatlakesprovisions.com', phone: '(616) 555-0163', state: 'MI', license: 'AU-P-000412', facility_type: 'Manufacturing', plan: planId(3), requested: ago(12), status: 'Provisioned', eula: 'yes', notes: '' },
    { company: 'Bayou Botanicals', contact: 'Renee Thibodeaux', email: 'renee@bayoubotanicals.com', phone: '(225) 555-0134', state: 'LA', license: 'LA-MC-0021', facility_type: 'Cultivation', plan: planId(4), requested: ago(0.6), status: 'Pending', eula: 'no', notes: 'Medical only; compliance module first.' },
    { company: 'Red Dirt Growers', contact: 'Caleb Hughes', email: 'caleb@reddirtgrowers.com', phone: '(405) 555-0187', state: 'OK', license: 'GAAA-7KQ2-M9TD', facility_type: 'Cultivation', plan: planId(0), requested: ago(21), status: 'Provisioned', eula: 'yes', notes: '' },
    { company: 'Silver State Supply', contact: 'Nadia Petrova', email: 'nadia@silverstatesupply.com', phone: '(702) 555-0121', state: 'NV', license: 'D061', facility_type: 'Distribution', plan: planId(2), requested: ago(9), status: 'Rejected', eula: 'yes', notes: 'State license not found in METRC; asked to resubmit.', IsUsed: 'no' },
    { company: 'Pine Tree Farms', contact: 'Owen Gallagher', email: 'owen@pinetreefarms.me', phone: '(207) 555-0155', state: 'ME', license: 'CUL-0000318', facility_type: 'Cultivation', plan: planId(1), requested: ago(7.3), status: 'Approved', eula: 'yes', notes: 'Tier 2 indoor.' },
    { company: 'Capitol Wellness Labs', contact: 'Jordan Ellis', email: 'jordan@capitolwellnesslabs.com', phone: '(202) 555-0109', state: 'DC', license: 'TL-00007', facility_type: 'Testing Lab', plan: planId(4), requested: ago(2.8), status: 'Pending', eula: 'yes', notes: '' },
    { company: 'Big Sky Harvest Co.', contact: 'Hannah Brooks', email: 'hannah@bigskyharvest.com', phone: '(406) 555-0196', state: 'MT', license: 'MT-CUL-1142', facility_type: 'Cultivation', plan: planId(1), requested: ago(4.2), status: 'Awaiting Credentials', eula: 'yes', notes: '' },
    { company: 'Mountaineer Medicinals', contact: 'Luke Barrett', email: 'luke@mountaineermed.com', phone: '(304) 555-0148', state: 'WV', license: 'WVG-0031', facility_type: 'Cultivation', plan: planId(3), requested: ago(0.2), status: 'Pending', eula: 'no', notes: 'Wants sensors and automation.' },
  ])

  const yearStart = ago(320)
  const yearEnd = ahead(45)
  const prov = (org: string, feature: string, limit: number, used: number, notes = '', extra: Row = {}): Row => ({
    org, feature, limit, used, enabled: 'yes', starts: org === 'lobby' ? ago(30) : yearStart, expires: org === 'lobby' ? ahead(14) : yearEnd, notes, ...extra,
  })
  out.auth_provisions = rows(ctx, 'auth_provisions', [
    prov('greenleaf', 'users', 25, 14),
    prov('greenleaf', 'facilities', 2, 1),
    prov('greenleaf', 'sensors', 60, 38, 'Flower rooms 1-4, veg, dry and cure rooms'),
    prov('greenleaf', 'kiosk_devices', 4, 2, 'Trim room and harvest scale kiosks'),
    prov('greenleaf', 'storage_gb', 100, 37),
    prov('greenleaf', 'api_calls_per_day', 50000, 18420),
    prov('greenleaf', 'metrc_sync', 1, 1, 'METRC California'),
    prov('greenleaf', 'automation_rules', 20, 7),
    prov('harbor', 'users', 15, 9),
    prov('harbor', 'facilities', 1, 1),
    prov('harbor', 'sensors', 10, 3, 'Vault temperature and humidity'),
    prov('harbor', 'storage_gb', 50, 12),
    prov('harbor', 'api_calls_per_day', 25000, 9320),
    prov('harbor', 'metrc_sync', 1, 1, 'METRC Colorado'),
    prov('harbor', 'sms_per_month', 2000, 412, 'Driver and delivery notices'),
    prov('lobby', 'users', 5, 2, 'Trial'),
    prov('lobby', 'storage_gb', 5, 1, 'Trial'),
    prov('lobby', 'api_calls_per_day', 1000, 87, 'Trial'),
    prov('lobby', 'sensors', 0, 0, 'Not in trial', { enabled: 'no' }),
  ])

  // ---- Integrations and system variables -----------------------------------------------------
  out.sup_integrations = rows(ctx, 'sup_integrations', [
    { name: 'METRC California', provider: 'Metrc LLC', category: 'State Tracking', org: 'greenleaf', endpoint: 'https://api-ca.metrc.com', auth: 'Basic', last_sync: ago(0.54), status: 'Connected', enabled: 'yes' },
    { name: 'METRC Colorado', provider: 'Metrc LLC', category: 'State Tracking', org: 'harbor', endpoint: 'https://api-co.metrc.com', auth: 'Basic', last_sync: hoursAgo(0.3), status: 'Connected', enabled: 'yes' },
    { name: 'QuickBooks Online', provider: 'Intuit', category: 'Accounting', org: 'harbor', endpoint: 'https://quickbooks.api.intuit.com/v3', auth: 'OAuth 2.0', last_sync: ago(0.9), status: 'Connected', enabled: 'yes' },
    { name: 'Transactional Email', provider: 'Twilio SendGrid', category: 'Email', org: 'all', endpoint: 'https://api.sendgrid.com/v3/mail/send', auth: 'API Key', last_sync: hoursAgo(0.1), status: 'Connected', enabled: 'yes' },
    { name: 'SMS Notifications', provider: 'Twilio', category: 'SMS', org: 'all', endpoint: 'https://api.twilio.com/2010-04-01', auth: 'Basic', last_sync: hoursAgo(2.4), status: 'Connected', enabled: 'yes' },
    { name: 'File Storage', provider: 'Amazon Web Services', category: 'Storage', org: 'all', endpoint: 's3://canopy-files-prod', auth: 'IAM Role', last_sync: hoursAgo(0.05), status: 'Connected', enabled: 'yes' },
    { name: 'Slack Alerts', provider: 'Slack', category: 'Chat', org: 'greenleaf', endpoint: 'https://hooks.slack.com/services/T04GLF/B07ALRT', auth: 'API Key', last_sync: ago(1.1), status: 'Connected', enabled: 'yes' },
    { name: 'Google Calendar', provider: 'Google', category: 'Calendar', org: 'greenleaf', endpoint: 'https://www.googleapis.com/calendar/v3', auth: 'OAuth 2.0', last_sync: ago(6), status: 'Error', enabled: 'yes' },
    { name: 'LeafLink Wholesale', provider: 'LeafLink', category: 'Marketplace', org: 'harbor', endpoint: 'https://app.leaflink.com/api/v2', auth: 'API Key', last_sync: '', status: 'Pending', enabled: 'no' },
    { name: 'Xero (retired)', provider: 'Xero', category: 'Accounting', org: 'greenleaf', endpoint: 'https://api.xero.com/api.xro/2.0', auth: 'OAuth 2.0', last_sync: ago(140), status: 'Disabled', enabled: 'no', IsUsed: 'no' },
  ])

  const gv = (name: string, value: string, type: string, category: string, description: string, days: number, extra: Row = {}): Row => ({
    name, value, type, category, description, updated: ago(days), ...extra,
  })
  out.sup_golden_vars = rows(ctx, 'sup_golden_vars', [
    gv('APP_VERSION', '4.1.0', 'string', 'Application', 'Version shown in the title bar.', 19, { ed: 'no', delete: 'no' }),
    gv('DEFAULT_THEME', 'dark', 'string', 'Display', 'Theme for users without a saved preference (dark or light).', 200),
    gv('DEFAULT_LANGUAGE', 'en', 'string', 'Display', 'Phrase map language used when the user has none.', 200),
    gv('IDLE_LOGOUT_S', '3600', 'number', 'Session', 'Seconds of inactivity before the user is logged out.', 200, { delete: 'no' }),
    gv('AUTH_REQUEST_TIMEOUT_MS', '10000', 'number', 'Network', 'Request timeout of the auth clients.', 200),
    gv('API_RATE_LIMIT', '{"requests":8,"perMs":500}', 'json', 'Network', 'Rate limit of the main api client.', 150),
    gv('PAGE_SIZES', '[10,20,30,40]', 'json', 'Display', 'Rows-per-page choices of table screens (default 10).', 150),
    gv('SEARCH_DEBOUNCE_MS', '1000', 'number', 'Display', 'Delay after typing before a column search runs.', 150),
    gv('TABLE_REFRESH_DEBOUNCE_MS', '500', 'number', 'Display', 'Delay before a table refresh after a server push.', 150),
    gv('SCALE_TIMEOUT_S', '10', 'number', 'Devices', 'Scale reading timeout.', 90),
    gv('SCALE_TIMEOUT_USER_S', '30', 'number', 'Devices', 'Scale reading timeout when the device argument is user.', 90),
    gv('PRINT_REENABLE_S', '20', 'number', 'Devices', 'Seconds the print icon stays disabled after a print request.', 90),
    gv('BROKER_KEEPALIVE_S', '60', 'number', 'Network', 'Message broker keepalive interval.', 120),
    gv('BROKER_RECONNECT_S', '1', 'number', 'Network', 'Message broker reconnect interval.', 120),
    gv('CHUNK_LOAD_TIMEOUT_S', '120', 'number', 'Application', 'Script chunk load timeout.', 120),
    gv('MESSAGE_POPUP_S', '10', 'number', 'Display', 'Seconds a message popup stays open.', 60),
    gv('TRIM_LENGTH', '12', 'number', 'Display', 'Values longer than this are shortened in trim columns.', 60),
    gv('QR_CODE_SIZE', '125', 'number', 'Display', 'QR code size in pixels (error level L).', 60),
    gv('TAG_PAD_DIGITS', '4', 'number', 'METRC', 'Tag generator pads numbers to this many digits.', 45),
    gv('METRC_BATCH_LIMIT', '100', 'number', 'METRC', 'Maximum objects per METRC POST request.', 45),
    gv('MAINTENANCE_MODE', 'false', 'boolean', 'Application', 'When true, only super users can log in.', 2),
  ])

  // ---- Heartbeats and logins -----------------------------------------------------------------
  const hb = (source: string, kind: string, org: string, host: string, version: string, minutes: number, status = 'OK'): Row => ({
    source, kind, org, host, version, last_seen: new Date(t0 - minutes * 60_000).toISOString(),
    latency_ms: status === 'Down' ? 0 : rng.int(12, 180), uptime_h: status === 'Down' ? 0 : rng.int(20, 2200), status, healthy: status === 'OK' ? 'yes' : 'no',
  })
  out.sup_heartbeats = rows(ctx, 'sup_heartbeats', [
    hb('Login server', 'Login Server', 'all', 'login-01.canopy.internal', '4.1.0', 0.4),
    hb('Auth server', 'Auth Server', 'all', 'auth-01.canopy.internal', '4.1.0', 0.3),
    hb('API server 1', 'API Server', 'all', 'api-01.canopy.internal', '4.1.0', 0.2),
    hb('API server 2', 'API Server', 'all', 'api-02.canopy.internal', '4.1.0', 0.5),
    hb('File server', 'File Server', 'all', 'files-01.canopy.internal', '4.1.0', 0.6),
    hb('MQTT broker', 'Message Broker', 'all', 'mqtt-01.canopy.internal', '2.0.18', 0.2),
    hb('Greenleaf gateway', 'Gateway', 'greenleaf', 'gl-gw-01', '5.1.0', 0.9),
    hb('Flower Room 2 climate', 'Sensor', 'greenleaf', 'gl-th-fr2-01', '2.4.2', 1.5),
    hb('Dry Room climate', 'Sensor', 'greenleaf', 'gl-th-dry-01', '2.4.0', 27, 'Late'),
    hb('Harvest floor scale', 'Scale', 'greenleaf', 'gl-scale-01', '3.2.1', 2.2),
    hb('Trim room RFID reader', 'RFID Reader', 'greenleaf', 'gl-rfid-01', '1.5.4', 3.1),
    hb('Label printer', 'Printer', 'greenleaf', 'gl-prn-01', '2.0.3', 4.4),
    hb('Harbor gateway', 'Gateway', 'harbor', 'hb-gw-01', '5.0.1', 1.2),
    hb('Vault scale', 'Scale', 'harbor', 'hb-scale-01', '3.1.0', 2900, 'Down'),
    hb('Shipping printer', 'Printer', 'harbor', 'hb-prn-01', '2.0.3', 6.5),
  ])

  const people = [
    { email: 'admin@canopy.app', org: 'lobby', role: 'super' },
    { email: 'support@canopy.app', org: 'lobby', role: 'super' },
    { email: 'maria.lopez@greenleaffarms.com', org: 'greenleaf', role: 'admin' },
    { email: 'james.chen@greenleaffarms.com', org: 'greenleaf', role: 'manager' },
    { email: 'devon.walker@greenleaffarms.com', org: 'greenleaf', role: 'compliance' },
    { email: 'ana.ruiz@greenleaffarms.com', org: 'greenleaf', role: 'user' },
    { email: 'trimroom.kiosk@greenleaffarms.com', org: 'greenleaf', role: 'kiosk' },
    { email: 'sarah.kim@harbordistribution.com', org: 'harbor', role: 'admin' },
    { email: 'marcus.bell@harbordistribution.com', org: 'harbor', role: 'user' },
    { email: 'lena.ortiz@harbordistribution.com', org: 'harbor', role: 'compliance' },
    { email: 'daniel@emeraldbaycultivators.com', org: 'lobby', role: 'user' },
  ]
  const logins: Row[] = []
  for (let day = 0; day < 3; day++) {
    for (const p of people) {
      if (logins.length >= 20 || (p.role === 'user' && p.org === 'lobby' && day > 1)) continue
      if (!rng.chance(day === 0 ? 0.95 : 0.7)) continue
      const n = p.role === 'kiosk' ? rng.int(1, 2) : rng.int(1, 6)
      const dayStart = new Date(t0 - day * DAY)
      dayStart.setUTCHours(0, 0, 0, 0)
      logins.push({
        date: dayStart.toISOString(), email: p.email, org: p.org, role: p.role, logins: n, failed: rng.chance(0.2) ? rng.int(1, 3) : 0,
        last_login: new Date(Math.min(t0, dayStart.getTime() + rng.int(13, 23) * HOUR + rng.int(0, 59) * 60_000)).toISOString(),
        last_ip: p.org === 'harbor' ? `198.51.100.${rng.int(10, 60)}` : `203.0.113.${rng.int(10, 200)}`,
        client: p.role === 'kiosk' ? 'Kiosk' : rng.pick(['Chrome', 'Chrome', 'Safari', 'Edge', 'Firefox']),
      })
    }
  }
  out.sup_login_summary = rows(ctx, 'sup_login_summary', logins)

  // ---- Bots ----------------------------------------------------------------------------------
  out.sup_bots = rows(ctx, 'sup_bots', [
    { name: 'Compliance Bot', description: 'Answers questions about open METRC sync errors, waste logs and license renewals.', channel: 'Slack', org: 'all', owner: 'devon.walker@greenleaffarms.com', language: 'en', created: ago(300), enabled: 'yes' },
    { name: 'Sensor Alert Bot', description: 'Posts climate alerts when readings pass the dictionary warn or error thresholds.', channel: 'Slack', org: 'greenleaf', owner: 'james.chen@greenleaffarms.com', language: 'en', created: ago(240), enabled: 'yes' },
    { name: 'Harvest Reminder Bot', description: 'Reminds growers of plantings approaching their expected harvest date.', channel: 'SMS', org: 'greenleaf', owner: 'maria.lopez@greenleaffarms.com', language: 'es', created: ago(180), enabled: 'yes' },
    { name: 'Order Status Bot', description: 'Texts buyers when an order is packed, manifested and out for delivery.', channel: 'SMS', org: 'harbor', owner: 'sarah.kim@harbordistribution.com', language: 'en', created: ago(150), enabled: 'yes' },
    { name: 'Sidekick Assistant', description: 'In-app chat helper for navigating tables and running reports.', channel: 'Web Chat', org: 'all', owner: 'admin@canopy.app', language: 'en', created: ago(90), enabled: 'yes' },
    { name: 'Onboarding Bot', description: 'Guides new accounts through EULA, METRC credentials and first facility setup.', channel: 'Email', org: 'lobby', owner: 'support@canopy.app', language: 'en', created: ago(60), enabled: 'yes' },
    { name: 'Device Watchdog', description: 'Listens on the broker for devices that stop reporting.', channel: 'MQTT', org: 'all', owner: 'admin@canopy.app', language: 'en', created: ago(400), enabled: 'no', IsUsed: 'no' },
  ])
  const bot = (i: number) => ctx.id('sup_bots', i)
  const act = (b: number, name: string, trigger: string, command: string, target: string, action: string, role = 'user', enabled = 'yes'): Row => ({
    bot: bot(b), name, trigger, command, target, action, role, enabled,
  })
  out.sup_bot_actions = rows(ctx, 'sup_bot_actions', [
    act(0, 'List METRC sync errors', 'Command', '/metrc errors', 'sup_dispatch_log', "reply(query('metrc_sync_errors', { since: '24h' }))", 'compliance'),
    act(0, 'Waste logged today', 'Command', '/waste today', 'fac_waste', "reply(sum('fac_waste', 'weight', { date: 'today' }))"),
    act(0, 'License renewal reminder', 'Schedule', '0 9 * * 1', 'set_mylic', "notify(expiring('set_mylic', 'expires', 60))", 'admin'),
    act(1, 'Climate above warn', 'Threshold', 'temp,rh,co2,vpd', 'sen_devices', "post(channel, msg('SENSOR_WARN', reading))"),
    act(1, 'Climate above error', 'Threshold', 'temp,rh,co2', 'sen_devices', "post(channel, msg('SENSOR_ERROR', reading)); sms(onCall)"),
    act(1, 'Low battery', 'Threshold', 'battery', 'sen_devices', "post(channel, msg('BATTERY_LOW', reading))"),
    act(2, 'Harvest due in 7 days', 'Schedule', '0 8 * * *', 'fac_plantings', "sms(owner, msg('HARVEST_DUE', planting))"),
    act(3, 'Order packed', 'Event', 'dis_orders:update:status=Packed', 'dis_orders', "sms(buyer, msg('ORDER_PACKED', order))"),
    act(3, 'Out for delivery', 'Event', 'dis_orders:update:status=Shipped', 'dis_orders', "sms(buyer, msg('ORDER_SHIPPED', order))"),
    act(4, 'Open table', 'Command', '/open <table>', 'schemas', "navigate(route(args.table))"),
    act(4, 'Today\u2019s harvest weight', 'Command', '/harvest weight', 'fac_harvests', "reply(sum('fac_harvests', 'wet_weight', { date: 'today' }))"),
    act(5, 'Credentials reminder', 'Schedule', '0 15 * * *', 'temp_processing', "email(pending('temp_credentials'), 'metrc_credentials_error')", 'super'),
  ])
  const msg = (b: number, code: string, lang: string, severity: string, text: string): Row => ({ bot: bot(b), code, lang, severity, text })
  out.auth_bot_msg = rows(ctx, 'auth_bot_msg', [
    msg(1, 'SENSOR_WARN', 'en', 'warning', '{label} in {location} is {value}{units}, above the warning level of {warn}{units}.'),
    msg(1, 'SENSOR_WARN', 'es', 'warning', '{label} en {location} es {value}{units}, por encima del nivel de advertencia de {warn}{units}.'),
    msg(1, 'SENSOR_ERROR', 'en', 'error', 'ALERT: {label} in {location} is {value}{units}, above the error level of {error}{units}. Check the room now.'),
    msg(1, 'SENSOR_ERROR', 'es', 'error', 'ALERTA: {label} en {location} es {value}{units}, por encima del nivel de error de {error}{units}. Revise la sala ahora.'),
    msg(1, 'BATTERY_LOW', 'en', 'warning', 'Device {deviceName} battery is at {value} V, below {low} V. Replace it within 48 hours.'),
    msg(2, 'HARVEST_DUE', 'en', 'info', 'Planting {mtag} ({strain}) in {room} is due for harvest on {date}.'),
    msg(2, 'HARVEST_DUE', 'es', 'info', 'La siembra {mtag} ({strain}) en {room} debe cosecharse el {date}.'),
    msg(3, 'ORDER_PACKED', 'en', 'info', 'Your order {orderNo} from Harbor Distribution is packed and waiting for a manifest.'),
    msg(3, 'ORDER_SHIPPED', 'en', 'info', 'Your order {orderNo} is out for delivery. Manifest {manifest}, ETA {eta}.'),
    msg(3, 'ORDER_SHIPPED', 'es', 'info', 'Su pedido {orderNo} está en camino. Manifiesto {manifest}, llegada estimada {eta}.'),
    msg(0, 'METRC_SYNC_FAILED', 'en', 'error', 'METRC sync for {facility} failed at {time}: {error}.'),
    msg(0, 'LICENSE_EXPIRING', 'en', 'warning', 'License {license} expires on {date}. Start the renewal now.'),
    msg(4, 'UNKNOWN_COMMAND', 'en', 'info', 'Sorry, I did not understand that. Try /open <table> or /harvest weight.'),
    msg(5, 'WELCOME', 'en', 'info', 'Welcome to Canopy! Accept the EULA and enter your METRC API key and state license to get started.'),
  ])

  // ---- Email structure, status, firmware -----------------------------------------------------
  const FOOTER = 'Canopy · 4.1.0 · You receive this email because you have an account with Canopy. Contact support@canopy.app for help.'
  const email = (name: string, subject: string, kind: string, body: string, days: number, lang = 'en', extra: Row = {}): Row => ({
    name, subject, from: kind === 'Marketing' ? 'Canopy <news@canopy.app>' : 'Canopy <no-reply@canopy.app>', kind, lang, body, footer: FOOTER, updated: ago(days), enabled: 'yes', ...extra,
  })
  out.sup_email_structure = rows(ctx, 'sup_email_structure', [
    email('password_reset', 'Reset your Canopy password', 'Transactional', '<p>Hello {firstname},</p><p>Click <a href="{link}">here</a> to reset your password. The link expires in 60 minutes.</p>', 40, 'en', { delete: 'no' }),
    email('password_reset_es', 'Restablezca su contraseña de Canopy', 'Transactional', '<p>Hola {firstname}:</p><p>Haga clic <a href="{link}">aquí</a> para restablecer su contraseña. El enlace vence en 60 minutos.</p>', 40, 'es'),
    email('email_verify', 'Verify your email address', 'Transactional', '<p>Confirm your address by opening <a href="{link}">this link</a>.</p>', 80),
    email('account_processing', 'Your Canopy account is being processed', 'Transactional', '<p>Your account is being processed. You will receive an email when your account is ready for access.</p>', 80),
    email('account_ready', 'Your Canopy account is ready', 'Transactional', '<p>Your facility {facility} is ready. Sign in at <a href="{url}">{url}</a>.</p>', 80),
    email('metrc_credentials_error', 'Action needed: METRC credentials', 'Notification', '<p>There was an error in one or more of the credentials you previously provided. Please correct this information.</p>', 30),
    email('metrc_sync_error', 'METRC sync errors for {facility}', 'Notification', '<p>{count} records failed to sync with METRC:</p>{table}', 30),
    email('daily_compliance_digest', 'Daily compliance digest - {facility} - {date}', 'Report', '<h2>Last 24 hours</h2>{waste}{harvests}{errors}', 12),
    email('low_battery_alert', 'Sensor battery low: {deviceName}', 'Notification', '<p>{deviceName} in {location} reports a battery voltage of {value} V.</p>', 55),
    email('release_notes', 'What is new in Canopy {version}', 'Marketing', '<h1>Canopy {version}</h1>{notes}', 19),
  ])

  out.sup_status = rows(ctx, 'sup_status', [
    { service: 'Login', component: 'login server', status: 'Operational', message: '', incident: '', updated: hoursAgo(0.5), ok: 'yes' },
    { service: 'Authentication', component: 'auth server', status: 'Operational', message: '', incident: '', updated: hoursAgo(0.5), ok: 'yes' },
    { service: 'Organisation API', component: 'api servers', status: 'Operational', message: '', incident: '', updated: hoursAgo(0.5), ok: 'yes' },
    { service: 'File Server', component: 'files server', status: 'Operational', message: '', incident: '', updated: hoursAgo(0.5), ok: 'yes' },
    { service: 'Message Broker', component: 'mqtt / websocket', status: 'Degraded Performance', message: 'Some devices in us-west-2 reconnect slowly; investigating.', incident: 'INC-2026-041', updated: hoursAgo(1.6), ok: 'no' },
    { service: 'METRC Sync (CA)', component: 'api-ca.metrc.com', status: 'Operational', message: '', incident: '', updated: hoursAgo(0.5), ok: 'yes' },
    { service: 'METRC Sync (CO)', component: 'api-co.metrc.com', status: 'Partial Outage', message: 'METRC Colorado returns 503 for transfer endpoints; retries are queued.', incident: 'INC-2026-042', updated: hoursAgo(0.8), ok: 'no' },
    { service: 'Email Delivery', component: 'SendGrid', status: 'Operational', message: '', incident: '', updated: hoursAgo(0.5), ok: 'yes' },
    { service: 'Scheduled Maintenance', component: 'database', status: 'Under Maintenance', message: 'Database engine upgrade planned for Sunday 02:00-04:00 PT.', incident: 'MNT-2026-011', updated: ago(1), ok: 'yes' },
  ])

  const fw = (name: string, version: string, device_type: string, hardware: string, size_kb: number, days: number, notes: string, extra: Row = {}): Row => ({
    name, version, device_type, hardware, file: `${name}-${version}.bin`, size_kb, sha256: hex(64), released: ago(days), notes, ...extra,
  })
  out.ota = rows(ctx, 'ota', [
    fw('canopy-sensor-th', '2.3.1', 'sensor', 'ESP32-S3 + SHT45', 1184, 260, 'Initial VPD calculation.', { IsUsed: 'no' }),
    fw('canopy-sensor-th', '2.4.0', 'sensor', 'ESP32-S3 + SHT45', 1201, 120, 'Leaf temperature offset; faster Wi-Fi reconnect.'),
    fw('canopy-sensor-th', '2.4.2', 'sensor', 'ESP32-S3 + SHT45', 1203, 6, 'Fixes humidity drift after long uptime.'),
    fw('canopy-sensor-co2', '1.8.0', 'sensor', 'ESP32-S3 + SCD41', 1240, 75, 'Automatic self-calibration can be turned off.'),
    fw('canopy-sensor-soil', '1.2.0', 'sensor', 'ESP32-C3 + capacitive probe + EC/pH', 980, 48, 'Adds EC temperature compensation.'),
    fw('canopy-scale-bridge', '3.1.0', 'scale', 'RS-232 bridge for Ohaus Defender', 640, 190, 'Stable-weight detection.'),
    fw('canopy-scale-bridge', '3.2.1', 'scale', 'RS-232 bridge for Ohaus Defender', 652, 33, 'Reports unit (lb, oz, g) with every reading.'),
    fw('canopy-rfid-bridge', '1.5.4', 'rfid', 'UHF reader bridge', 812, 58, 'Filters duplicate reads within 2 s.'),
    fw('canopy-print-agent', '2.0.3', 'printer', 'Zebra ZD421 agent', 540, 88, 'ZPL templates with QR code size 125.'),
    fw('canopy-gateway', '5.0.1', 'gateway', 'Raspberry Pi CM4', 48210, 150, 'Broker keepalive 60 s.'),
    fw('canopy-gateway', '5.1.0', 'gateway', 'Raspberry Pi CM4', 48766, 12, 'Offline buffering of readings for 72 hours.'),
  ])

  // ---- Calendar, documents, services, files --------------------------------------------------
  const ev = (title: string, type: string, startDays: number, hours: number, org: string, owner: string, notes = '', all_day = 'no'): Row => ({
    title, type, start: startDays >= 0 ? ahead(startDays) : ago(-startDays), end: new Date(t0 + startDays * DAY + hours * HOUR).toISOString(), all_day, org, owner, notes,
  })
  out.sup_calendar = rows(ctx, 'sup_calendar', [
    ev('Database engine upgrade', 'Maintenance', -30, 2, 'all', 'admin@canopy.app', 'Completed without downtime.'),
    ev('Harbor SOC 2 evidence review', 'Audit', -12, 3, 'harbor', 'sarah.kim@harbordistribution.com'),
    ev('Firmware rollout: canopy-sensor-th 2.4.2', 'Maintenance', -6, 4, 'greenleaf', 'admin@canopy.app', 'Staged: 10% then 100% of sensors.'),
    ev('Quarterly platform maintenance window', 'Maintenance', 2.5, 2, 'all', 'admin@canopy.app', 'Sunday 02:00-04:00 PT; API read-only.'),
    ev('Greenleaf METRC workflow training', 'Training', 5, 1.5, 'greenleaf', 'support@canopy.app', 'Plantings, harvests and waste in METRC.'),
    ev('Canopy 4.1.1 release', 'Release', 9, 1, 'all', 'admin@canopy.app', 'Bug fixes for scale timeouts and date filters.'),
    ev('Colorado MED rules update webinar', 'Training', 14, 1, 'harbor', 'lena.ortiz@harbordistribution.com'),
    ev('Customer advisory board', 'Meeting', 20, 2, 'all', 'admin@canopy.app'),
    ev('Holiday support coverage', 'Meeting', 35, 24, 'all', 'support@canopy.app', 'Reduced support hours Dec 24-26.', 'yes'),
    ev('Greenleaf annual license renewal', 'Renewal', 40, 24, 'greenleaf', 'devon.walker@greenleaffarms.com', 'CA DCC renewal due 60 days before expiry.', 'yes'),
  ])

  const doc = (title: string, category: string, version: string, audience: string, owner: string, status: string, days: number): Row => ({
    title, category, version, file: fileRef(PLATFORM_ORG, 'docs', `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/(^-|-$)/g, '')}-v${version}.pdf`), audience, owner, status, updated: ago(days),
  })
  out.sup_docs = rows(ctx, 'sup_docs', [
    doc('Canopy User Guide', 'User Guide', '4.1', 'All Users', 'support@canopy.app', 'Published', 19),
    doc('Super Admin Handbook', 'User Guide', '4.1', 'Super', 'admin@canopy.app', 'Published', 19),
    doc('METRC Integration Guide', 'Compliance', '3.2', 'Admins', 'support@canopy.app', 'Published', 64),
    doc('Scale and RFID Setup', 'SOP', '2.0', 'Admins', 'support@canopy.app', 'Published', 33),
    doc('Sensor Installation SOP', 'SOP', '1.4', 'Admins', 'support@canopy.app', 'Published', 48),
    doc('Data Retention Policy', 'Compliance', '1.1', 'All Users', 'admin@canopy.app', 'Published', 210),
    doc('Organisation API Reference', 'API', '4.1', 'Developers', 'admin@canopy.app', 'Published', 19),
    doc('Release Notes 4.1.0', 'Release', '4.1.0', 'All Users', 'admin@canopy.app', 'Published', 19),
    doc('End User License Agreement', 'Legal', '2026.1', 'All Users', 'admin@canopy.app', 'Published', 320),
    doc('Incident Response Plan', 'Compliance', '0.9', 'Super', 'admin@canopy.app', 'Draft', 4),
    doc('Release Notes 3.9.0', 'Release', '3.9.0', 'All Users', 'admin@canopy.app', 'Archived', 380),
  ])

  const svc = (name: string, role: string, host: string, port: number, protocol: string, path: string, version: string, days: number, healthy = 'yes'): Row => ({
    name, role, host, port, protocol, url: `${protocol}://${host}${port === 443 ? '' : `:${port}`}${path}`, version, updated: ago(days), healthy,
  })
  out.sup_services = rows(ctx, 'sup_services', [
    svc('Login', 'login', 'login.canopy.app', 443, 'https', '/auth', '4.1.0', 19),
    svc('Auth', 'auth', 'auth.canopy.app', 443, 'https', '/dt/v1', '4.1.0', 19),
    svc('Original API', 'original-api', 'orig-api.canopy.app', 443, 'https', '/dt/v1', '4.1.0', 19),
    svc('Organisation API', 'api', 'api.canopy.app', 443, 'https', '/dt/v1', '4.1.0', 19),
    svc('Files', 'files', 'files.canopy.app', 443, 'https', '/getfiles', '4.1.0', 19),
    svc('Compliance server', 'compserver', 'comp.canopy.app', 443, 'https', '/metrc', '4.0.3', 61),
    svc('Broker (devices)', 'broker', 'mqtt.canopy.app', 8883, 'mqtts', '', '2.0.18', 90, 'no'),
    svc('Broker (browsers)', 'broker', 'mqtt.canopy.app', 443, 'wss', '/mqtt', '2.0.18', 90),
    svc('Job worker', 'worker', 'jobs.canopy.internal', 9090, 'tcp', '', '4.1.0', 19),
  ])

  const file = (name: string, org: string, subdir: string, mime: string, size_kb: number, uploaded_by: string, days: number): Row => ({
    name, org, subdir, mime, size_kb, file: fileRef(org, subdir, name), uploaded_by, uploaded: ago(days),
  })
  // no logo rows: a seeded link makes a demo file (issue 26), and the footer shows an organisation's logo only when it has one
  out.sup_files = rows(ctx, 'sup_files', [
    file('eula-2026.1.pdf', 'lobby', 'legal', 'application/pdf', 188, 'admin@canopy.app', 320),
    file('coa-blue-dream-B2611-03.pdf', 'greenleaf', 'coa', 'application/pdf', 412, 'devon.walker@greenleaffarms.com', 8),
    file('coa-gelato-B2610-17.pdf', 'greenleaf', 'coa', 'application/pdf', 398, 'devon.walker@greenleaffarms.com', 26),
    file('manifest-0004821.pdf', 'harbor', 'manifests', 'application/pdf', 96, 'marcus.bell@harbordistribution.com', 2),
    file('manifest-0004822.pdf', 'harbor', 'manifests', 'application/pdf', 101, 'marcus.bell@harbordistribution.com', 1),
    file('flower-room-2-layout.png', 'greenleaf', 'rooms', 'image/png', 1320, 'james.chen@greenleaffarms.com', 140),
    file('waste-sop-rev4.pdf', 'greenleaf', 'sop', 'application/pdf', 76, 'devon.walker@greenleaffarms.com', 95),
    file('price-list-q4.csv', 'harbor', 'sales', 'text/csv', 58, 'sarah.kim@harbordistribution.com', 45),
    file('vehicle-insurance-2026.pdf', 'harbor', 'transport', 'application/pdf', 230, 'sarah.kim@harbordistribution.com', 160),
  ])

  return { ...out, ...seedPlatformRecords2(ctx), ...seedPlatformRecords3(ctx) }
}
