/**
 * The platform itself: organisations (the lobby and two facilities), modules, workflows,
 * demo users with different entitlements, and the schemas of the platform collections the
 * sign-in flow uses. Seeded by the core team; the other seed modules fill the tables.
 */
import { MODULES } from '../route-map'
import type { SeedFacility } from './kit'
import { stableId } from './kit'

export const FACILITIES: SeedFacility[] = [
  { org: 'lobby', fullName: 'Canopy Lobby', kind: 'lobby', state: 'CA', license: '', timezone: 'America/Los_Angeles' },
  { org: 'greenleaf', fullName: 'Greenleaf Cultivation, Salinas', kind: 'cultivation', state: 'CA', license: 'CCL21-0001234', timezone: 'America/Los_Angeles' },
  { org: 'harbor', fullName: 'Harbor Distribution, Denver', kind: 'distribution', state: 'CO', license: '403R-00512', timezone: 'America/Denver' },
]

export const DEMO_PASSWORD = 'Canopy#Demo1'

export interface DemoUser {
  uid: string
  email: string
  role: 'super' | 'admin' | 'user'
  org: string
  firstname: string
  lastname: string
  /** facility -> module codes; null = all modules */
  modules: Record<string, string[] | null>
  /** job roles (users.props.roles), e.g. compliance */
  roles?: string[]
  web?: 'no'
  eulaip?: string
  /** what this account shows in a demo (README table) */
  purpose: string
}

export function demoUsers(adminEmail: string): DemoUser[] {
  return [
    { uid: 'u-super', email: adminEmail, role: 'super', org: 'greenleaf', firstname: 'Sam', lastname: 'Rivera', modules: { greenleaf: null, harbor: null, lobby: null }, eulaip: '127.0.0.1', purpose: 'platform operator: every facility, every module, the Super Admin menu' },
    { uid: 'u-admin', email: 'admin@greenleaf.demo', role: 'admin', org: 'greenleaf', firstname: 'Alex', lastname: 'Morgan', modules: { greenleaf: null, harbor: null }, eulaip: '10.0.0.12', purpose: 'facility admin of both facilities, all modules' },
    { uid: 'u-grower', email: 'grower@greenleaf.demo', role: 'user', org: 'greenleaf', firstname: 'Maria', lastname: 'Lopez', modules: { greenleaf: ['cul', 'dsh', 'sch', 'help', 'sensors'] }, eulaip: '10.0.0.31', purpose: 'grower on the kiosk: cultivation, dashboards, tasks, sensors' },
    { uid: 'u-compliance', email: 'compliance@greenleaf.demo', role: 'user', org: 'greenleaf', firstname: 'Jordan', lastname: 'Lee', modules: { greenleaf: ['metrc', 'cul', 'dsh', 'fin', 'help'], harbor: ['metrc', 'dis', 'fin', 'help'] }, roles: ['compliance'], eulaip: '10.0.0.40', purpose: 'compliance officer: METRC tables in both facilities' },
    { uid: 'u-dist', email: 'shipping@harbor.demo', role: 'user', org: 'harbor', firstname: 'Chris', lastname: 'Patel', modules: { harbor: ['dis', 'fin', 'help'] }, purpose: 'distribution staff (EULA not yet accepted)' },
    { uid: 'u-lobby', email: 'newgrower@lobby.demo', role: 'user', org: 'lobby', firstname: 'Taylor', lastname: 'Nguyen', modules: { lobby: ['help'] }, purpose: 'new sign-up in the lobby, METRC credentials pending' },
    { uid: 'u-noweb', email: 'sensor-gateway@greenleaf.demo', role: 'user', org: 'greenleaf', firstname: 'Sensor', lastname: 'Gateway', modules: { greenleaf: ['sensors'] }, web: 'no', eulaip: '10.0.0.90', purpose: 'device account without web access' },
  ]
}

export const WORKFLOWS = [
  { _id: 'wf-cul-harvest', module: 'Cultivation', name: 'Harvest day', description: 'Weigh, tag and record a harvest batch' },
  { _id: 'wf-cul-planting', module: 'Cultivation', name: 'New planting', description: 'Create a planting from seed or clones' },
  { _id: 'wf-dis-order', module: 'Distribution', name: 'Order to manifest', description: 'Pick, pack and ship an order' },
  { _id: 'wf-metrc-sync', module: 'Metrc', name: 'Daily reconciliation', description: 'Compare Canopy with METRC and resolve drift' },
  { _id: 'wf-fin-close', module: 'Finance', name: 'Month-end close', description: 'Receivables, payments and excise tax' },
]

export function orgRecords() {
  return FACILITIES.map((f) => ({
    _id: f.org,
    name: f.org,
    fullName: f.fullName,
    kind: f.kind,
    state: f.state,
    license: f.license,
    timezone: f.timezone,
    // METRC user-key placeholder: replaced by the credentials flow; never a real key in the demo
    metrc: f.kind === 'lobby' ? '' : `demo-user-key-${f.org}`,
    server: 'local',
    compserver: 'local',
    fileserver: 'local',
    wid: f.kind === 'cultivation' ? ['wf-cul-harvest', 'wf-cul-planting', 'wf-metrc-sync', 'wf-fin-close'] : f.kind === 'distribution' ? ['wf-dis-order', 'wf-fin-close'] : [],
    IsUsed: 'yes',
  }))
}

export function moduleRecords() {
  return MODULES.map((m) => ({ _id: `mod-${m.code}`, name: m.name, code: m.code }))
}

export function userRecords(adminEmail: string) {
  return demoUsers(adminEmail).map((u) => ({
    _id: u.uid,
    uid: u.uid,
    email: u.email,
    role: u.role,
    org: u.org,
    firstname: u.firstname,
    lastname: u.lastname,
    props: { facilities: Object.keys(u.modules), modules: u.modules, ...(u.roles ? { roles: u.roles } : {}) },
    web: u.web ?? 'yes',
    emailVerified: u.org === 'lobby' ? 'no' : 'yes',
    eulaip: u.eulaip ?? '',
    IsUsed: 'yes',
  }))
}

/** Seed-time ids for records of the platform collections in this file. */
export const coreId = (collection: string, i: number) => stableId('auth', collection, i)

export const coreSchemas = [
  {
    key: 'users', label: 'Users', defaultSort: { key: 'email', dir: 'asc' },
    items: [
      { key: 'email', label: 'Email', filter: true, sortable: true, required: true },
      { key: 'firstname', label: 'First Name', filter: true },
      { key: 'lastname', label: 'Last Name', filter: true, sortable: true },
      { key: 'role', label: 'Role', type: 'list', en: { list: ['super', 'admin', 'user'] }, required: true },
      { key: 'org', label: 'Organisation', format: 'id:org:fullName', type: 'list', en: { table: 'org', labelField: 'fullName' }, required: true },
      { key: 'uid', label: 'User Id', ro: 'yes' },
      { key: 'web', label: 'Web Access', format: 'check', type: 'check' },
      { key: 'emailVerified', label: 'Email Verified', format: 'check', type: 'check', ro: 'yes' },
      { key: 'eulaip', label: 'EULA Accepted From', ro: 'yes', show: 'no' },
      { key: 'props', label: 'Facilities and Modules', type: 'code', show: 'no' },
      { key: 'IsUsed', label: 'Active', format: 'status', type: 'status' },
    ],
    statusField: 'IsUsed',
  },
  {
    key: 'org', label: 'Organisations', defaultSort: { key: 'name', dir: 'asc' },
    items: [
      { key: 'name', label: 'Name', filter: true, sortable: true, required: true },
      { key: 'fullName', label: 'Full Name', filter: true, sortable: true },
      { key: 'kind', label: 'Kind', type: 'list', en: { list: ['lobby', 'cultivation', 'distribution', 'testing', 'retail'] } },
      { key: 'state', label: 'State', type: 'list', en: { list: ['CA', 'AK', 'DC', 'CO', 'LA', 'ME', 'MA', 'MD', 'MI', 'MO', 'MT', 'NV', 'OH', 'OK', 'OR', 'WV'] } },
      { key: 'license', label: 'State License', filter: true },
      { key: 'timezone', label: 'Time Zone' },
      { key: 'metrc', label: 'METRC API Key', show: 'no', ro: 'yes' },
      { key: 'server', label: 'API Server', show: 'no' },
      { key: 'compserver', label: 'Compute Server', show: 'no' },
      { key: 'fileserver', label: 'File Server', show: 'no' },
      { key: 'wid', label: 'Allowed Workflows', type: 'multilist', format: 'array', en: { table: 'auth_workflows', labelField: 'name' } },
      { key: 'IsUsed', label: 'Active', format: 'status', type: 'status' },
    ],
    statusField: 'IsUsed',
  },
  {
    key: 'sup_modules', label: 'Modules', defaultSort: { key: 'name', dir: 'asc' },
    items: [
      { key: 'name', label: 'Name', filter: true, sortable: true, required: true },
      { key: 'code', label: 'Code', filter: true, required: true },
    ],
  },
  {
    key: 'auth_workflows', label: 'Workflows', defaultSort: { key: 'module', dir: 'asc' },
    items: [
      { key: 'module', label: 'Module', filter: true, sortable: true, required: true, type: 'list', en: { table: 'sup_modules', labelField: 'name' } },
      { key: 'name', label: 'Name', filter: true, required: true },
      { key: 'description', label: 'Description', type: 'textarea', format: 'trim' },
    ],
  },
  {
    key: 'schemas', label: 'Schemas', editable: 'no', defaultSort: { key: 'key', dir: 'asc' },
    items: [
      { key: 'key', label: 'Table', filter: true, sortable: true },
      { key: 'label', label: 'Title', filter: true },
      { key: 'editable', label: 'Editable', format: 'check' },
      { key: 'dateField', label: 'Date Field' },
      { key: 'fields', label: 'Fields', type: 'array', format: 'array', show: 'no' },
    ],
  },
  {
    key: 'set_preferences', label: 'Preferences',
    items: [
      { key: 'uid', label: 'User', filter: true, sortable: true },
      { key: 'facility', label: 'Facility' },
      { key: 'light', label: 'Light Theme', format: 'check', type: 'check' },
      { key: 'lang', label: 'Language', type: 'list', en: { list: ['en', 'es'] } },
    ],
  },
  {
    key: 'temp_processing', label: 'Account Processing',
    items: [
      { key: 'email', label: 'Email', filter: true, sortable: true },
      { key: 'state', label: 'State' },
      { key: 'lic', label: 'License' },
      { key: 'metrc_api', label: 'METRC API Status' },
      { key: 'error_lic', label: 'License Error', format: 'check' },
      { key: 'error_metrc', label: 'API Key Error', format: 'check' },
    ],
  },
  {
    key: 'temp_eula', label: 'EULA',
    items: [
      { key: 'email', label: 'Email', filter: true, sortable: true },
      { key: 'status', label: 'Status', type: 'list', en: { list: ['accepted', 'declined'] } },
      { key: 'ip', label: 'Address' },
    ],
  },
  {
    key: 'temp_credentials', label: 'Submitted Credentials',
    items: [
      { key: 'email', label: 'Email', filter: true, sortable: true },
      { key: 'state', label: 'State' },
      { key: 'license', label: 'License' },
      { key: 'metrc', label: 'METRC API Key', show: 'no' },
      { key: 'nometrc', label: 'No METRC', format: 'check' },
    ],
  },
  {
    key: 'inf_global', label: 'Global Messages',
    items: [
      { key: 'title', label: 'Title', filter: true, sortable: true },
      { key: 'body', label: 'Body', type: 'textarea', format: 'trim' },
      { key: 'expanded', label: 'Expanded', type: 'textarea', show: 'no' },
      { key: 'from', label: 'From' },
    ],
  },
]

export function coreRecords(adminEmail: string, facilityOrgs: string[]) {
  return {
    org: orgRecords(),
    sup_modules: moduleRecords(),
    auth_workflows: WORKFLOWS,
    users: userRecords(adminEmail),
    temp_processing: [{ _id: coreId('temp_processing', 0), email: 'newgrower@lobby.demo', state: 'CA', lic: 'CCL22-0009876', metrc_api: 'pending', error_lic: 'no', error_metrc: 'no' }],
    temp_eula: [{ _id: coreId('temp_eula', 0), email: 'admin@greenleaf.demo', status: 'accepted', ip: '10.0.0.12' }],
    inf_global: [
      { _id: coreId('inf_global', 0), title: 'METRC maintenance window', body: 'METRC is down for maintenance Sunday 02:00-04:00 PT. Canopy queues your changes and sends them afterwards.', expanded: '', from: 'Canopy Support' },
    ],
    set_preferences: facilityOrgs.map((f, i) => ({ _id: coreId('set_preferences', i), uid: 'u-admin', facility: f, light: 'no', lang: 'en' })),
  } as Record<string, Array<Record<string, unknown> & { _id: string }>>
}
