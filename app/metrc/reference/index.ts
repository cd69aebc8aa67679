/**
 * What METRC itself publishes about its API (issue 21; tests/fixtures/metrc-real, copied from
 * shared/reference/metrc-real), used by the client, the sync, the outbox and the emulator alike:
 *   - the states METRC runs in and which endpoints each has (`existsIn`; generated.ts)
 *   - whether a list takes lastModifiedStart/End (`takesLastModified`)
 *   - the permissions a user key needs per endpoint ("Permissions Required" in METRC's docs)
 *   - what a write answers: `{Ids, Warnings}` (creates, destroys) or nothing (PUTs)
 *   - the example body row of each write (`bodyOf`): the fields METRC takes and their kinds
 * Shared by server and emulator; no I/O.
 */
import { GET_PARAMS, STATE_ENDPOINTS, WRITE_BODIES } from './generated'

/** METRC's 23 jurisdictions (OpenMetrc's v2 servers; Alaska dropped there). */
export const METRC_HOST_STATES = ['AL', 'CA', 'CO', 'DC', 'GU', 'KY', 'LA', 'MA', 'MD', 'ME', 'MI', 'MN', 'MO', 'MS', 'MT', 'NJ', 'NV', 'OH', 'OK', 'OR', 'RI', 'SD', 'WV'] as const

/** A concrete path (`/plants/v2/1A4…`, `/patients/v2/active`) as the template METRC's tables name it. */
export function templateOf(method: string, path: string): string {
  const p = path.replace(/\/+$/, '')
  const m = method.toUpperCase()
  if (`${m} ${p}` in STATE_ENDPOINTS) return `${m} ${p}`
  // a by-id or by-label read: the last segment is a value
  const cut = p.lastIndexOf('/')
  const last = p.slice(cut + 1)
  const base = p.slice(0, cut)
  if (/^\d+$/.test(last) && `${m} ${base}/{id}` in STATE_ENDPOINTS) return `${m} ${base}/{id}`
  if (/^[0-9A-Z]{24}$/.test(last) && `${m} ${base}/label` in STATE_ENDPOINTS) return `${m} ${base}/label`
  return `${m} ${p}`
}

/**
 * Does the endpoint exist in the state's METRC? Endpoints the coverage table does not list
 * (newer ones: mother plants, plant waste) are taken to exist everywhere METRC runs, and so is
 * every endpoint of a state the table has no entry for at all.
 */
export function existsIn(state: string, method: string, path: string): boolean {
  const st = state.toUpperCase()
  // a state the table shows nothing for (Alaska, dropped there) is not known to lack anything
  if (!COVERED.has(st)) return true
  const states = STATE_ENDPOINTS[templateOf(method, path)]
  if (states === undefined) return true
  return states.split(' ').includes(st)
}
const COVERED = new Set(Object.values(STATE_ENDPOINTS).flatMap((s) => s.split(' ')).filter(Boolean))

/** The list takes lastModifiedStart/End (METRC's Postman collection); else it is read whole. */
export const takesLastModified = (path: string) => /lastModifiedStart/.test(GET_PARAMS[path.replace(/\/+$/, '')] ?? '')

/**
 * "Permissions Required" in METRC's documentation, per endpoint: a read needs any one of them
 * (View or Manage), a write all of them. Endpoints not listed need no permission beyond the key.
 */
const PLANTS_VIEW = ['View Veg/Flower Plants']
const IMMATURE_VIEW = ['View Immature Plants']
export const PERMISSIONS: Record<string, string[]> = {
  'GET /employees/v2': ['Manage Employees', 'View Employees'],
  'GET /patients/v2/active': ['Manage Patients'],
  'GET /packages/v2/active': ['View Packages'],
  'GET /packages/v2/onhold': ['View Packages'],
  'GET /packages/v2/inactive': ['View Packages'],
  'GET /packages/v2/label': ['View Packages'],
  'GET /plants/v2/vegetative': PLANTS_VIEW,
  'GET /plants/v2/flowering': PLANTS_VIEW,
  'GET /plants/v2/onhold': PLANTS_VIEW,
  'GET /plants/v2/inactive': PLANTS_VIEW,
  'GET /plants/v2/mother': PLANTS_VIEW,
  'GET /plants/v2/mother/onhold': PLANTS_VIEW,
  'GET /plants/v2/mother/inactive': PLANTS_VIEW,
  'GET /plants/v2/label': PLANTS_VIEW,
  'GET /plants/v2/waste': ['View Plants Waste'],
  'GET /plantbatches/v2/active': IMMATURE_VIEW,
  'GET /plantbatches/v2/inactive': IMMATURE_VIEW,
  'GET /harvests/v2/active': ['View Harvests'],
  'GET /harvests/v2/onhold': ['View Harvests'],
  'GET /harvests/v2/inactive': ['View Harvests'],
  'GET /tags/v2/plant/available': ['Manage Tags'],
  'GET /tags/v2/package/available': ['Manage Tags'],
  'PUT /plants/v2/growthphase': ['View Veg/Flower Plants', 'Manage Veg/Flower Plants Inventory'],
  'PUT /plants/v2/location': ['View Veg/Flower Plants', 'Manage Veg/Flower Plants Inventory'],
  'PUT /plants/v2/harvest': ['View Veg/Flower Plants', 'Manicure/Harvest Veg/Flower Plants'],
  'DELETE /plants/v2': ['View Veg/Flower Plants', 'Destroy Veg/Flower Plants'],
  'POST /plants/v2/waste': ['Manage Plants Waste'],
  'POST /plantbatches/v2/plantings': ['View Immature Plants', 'Manage Immature Plants Inventory'],
  'POST /plantbatches/v2/growthphase': ['View Immature Plants', 'Manage Immature Plants Inventory', 'View Veg/Flower Plants', 'Manage Veg/Flower Plants Inventory'],
  'POST /items/v2': ['Manage Items'],
  'PUT /items/v2': ['Manage Items'],
  'POST /packages/v2': ['View Packages', 'Create/Submit/Discontinue Packages'],
  'POST /packages/v2/adjust': ['View Packages', 'Manage Packages Inventory'],
  'POST /harvests/v2/packages': ['View Harvests', 'Manage Harvests', 'View Packages', 'Create/Submit/Discontinue Packages'],
  // METRC's documentation of the transfer templates (CreateOutgoingTemplates, GetOutgoingTemplates,
  // GetOutgoingTemplateDeliveryById) and of the receipts (GetActiveReceipts: View or Manage Sales;
  // RecordReceipts names the key's Sales (Write) right and a facility type that sells, which a
  // user's Manage Sales stands for here)
  'GET /transfers/v2/templates/outgoing': ['Manage Transfer Templates', 'View Transfer Templates'],
  'GET /transfers/v2/templates/outgoing/{id}/deliveries': ['Manage Transfer Templates', 'View Transfer Templates'],
  'POST /transfers/v2/templates/outgoing': ['Manage Transfer Templates'],
  'GET /sales/v2/receipts/active': ['View Sales', 'Manage Sales'],
  'POST /sales/v2/receipts': ['Manage Sales'],
}

/** Every METRC permission the documentation names (the emulator's full-rights key holds them all). */
export const ALL_PERMISSIONS = [...new Set(Object.values(PERMISSIONS).flat())].sort()

/** What a user holding `held` may do at `endpoint` ("GET /employees/v2"): the permissions missing, or none. */
export function missingPermissions(endpoint: string, held: readonly string[]): string[] {
  const needs = PERMISSIONS[endpoint]
  if (!needs) return []
  if (endpoint.startsWith('GET ')) return needs.some((p) => held.includes(p)) ? [] : needs
  return needs.filter((p) => !held.includes(p))
}

/** How a permission list reads to a person: "View Employees or Manage Employees" (reads), "A and B" (writes). */
export function permissionText(endpoint: string): string | null {
  const needs = PERMISSIONS[endpoint]
  if (!needs?.length) return null
  return needs.join(endpoint.startsWith('GET ') ? ' or ' : ' and ')
}

/**
 * What METRC answers a write (its documentation's "Example Response"): creates and destroys
 * (POST, DELETE) answer `{Ids, Warnings}`; updates (PUT) answer nothing.
 */
export const writeAnswers = (method: string): 'ids' | 'none' => (method.toUpperCase() === 'PUT' ? 'none' : 'ids')

/** METRC's example body row of a write ("POST /items/v2"), or null when Canopy does not know it. */
export function bodyOf(endpoint: string): Record<string, unknown> | null {
  return WRITE_BODIES[endpoint.replace(/\/+$/, '')] ?? null
}

/** The kind of value a body field takes, from METRC's example: 'number', 'string', 'boolean', 'list', 'rows', or null (the example has null). */
export function fieldKind(value: unknown): 'number' | 'string' | 'boolean' | 'list' | 'rows' | null {
  if (Array.isArray(value)) return value.some((x) => x && typeof x === 'object') ? 'rows' : 'list'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'boolean'
  return null
}
