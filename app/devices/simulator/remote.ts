/**
 * The devices the simulator plays when it runs beside a Canopy server (npm run devices): signed in
 * through the JSON API as a facility admin (app/api-client), it lists the facility's sensor devices
 * and printers and asks POST /misc/devicekey for each one's key. The dictionary comes from
 * GET /dt/v1/dictionary.
 */
import { createApiClient } from '../../api-client'
import type { SimDevice, SimKind } from './run'
import { dictionaryOf } from './setup.server'
import type { DictionaryEntry } from './behaviour'

type Row = Record<string, unknown>
const KINDS = new Set(['scale', 'rfid', 'sensor'])
const str = (v: unknown) => (typeof v === 'string' ? v : '')
const rowsOf = (x: unknown): Row[] => (Array.isArray(x) ? (x as Row[]) : Array.isArray((x as { data?: unknown })?.data) ? ((x as { data: Row[] }).data) : [])

export async function remoteDevices(o: { baseUrl: string; email: string; password: string; orgs?: string[] }): Promise<{ devices: SimDevice[]; dictionary: DictionaryEntry[] }> {
  const home = createApiClient({ baseUrl: o.baseUrl, email: o.email, password: o.password })
  const me = await home.login()
  const facilities = o.orgs?.length ? o.orgs : [str(me.org)]
  const devices: SimDevice[] = []
  for (const org of facilities) {
    const switched = org === str(me.org) ? null : await home.get<Record<string, string>>(`/misc/switchorg?org=${encodeURIComponent(org)}`)
    const api = switched ? createApiClient({ baseUrl: o.baseUrl, token: switched['x-access-token'], refreshToken: switched['refresh-token'] }) : home
    const wanted: Array<{ deviceID: string; kind: SimKind }> = []
    for (const d of rowsOf(await api.get('/dt/v1/sen_devices?limit=500'))) if (KINDS.has(str(d.type))) wanted.push({ deviceID: str(d.deviceID), kind: str(d.type) as SimKind })
    for (const p of rowsOf(await api.get('/dt/v1/set_printers?limit=500'))) if (str(p.deviceid)) wanted.push({ deviceID: str(p.deviceid), kind: 'printer' })
    for (const w of wanted) {
      const cred = await api.post<{ username: string; password: string }>('/misc/devicekey', { deviceID: w.deviceID })
      devices.push({ org, ...w, ...cred })
    }
  }
  const dictionary = dictionaryOf(rowsOf(await home.get('/dt/v1/dictionary')))
  return { devices, dictionary }
}
