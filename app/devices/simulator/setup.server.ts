/**
 * The devices the simulator plays, read from the database of this process (the demo): every
 * organisation's sensor devices (`sen_devices`: scales, RFID readers, sensors) and label printers
 * (`set_printers`), each with a device key issued now (a key issued earlier for that device stops
 * working: the simulator is the device). The sensor dictionary comes from the platform.
 */
import type { Database } from '../../db/index.server'
import { issueDeviceKey } from '../../bus/credentials.server'
import { SEGMENT_RE } from '../../bus/topics'
import { PLATFORM_ORG } from '../../route-map'
import { SENSOR_CODES, type DictionaryEntry } from './behaviour'
import type { SimDevice, SimKind } from './run'

const KINDS = new Set<SimKind>(['scale', 'rfid', 'sensor'])
const str = (v: unknown) => (typeof v === 'string' ? v : '')

export function dictionaryOf(rows: Array<Record<string, unknown>>): DictionaryEntry[] {
  const out: DictionaryEntry[] = []
  for (const r of rows) {
    const e = { code: str(r.code), max: Number(r.max), low: Number(r.low), med: Number(r.med), warn: Number(r.warn), error: Number(r.error) }
    if (SENSOR_CODES.includes(e.code) && [e.max, e.low, e.med, e.warn, e.error].every(Number.isFinite)) out.push(e)
  }
  return out
}

export async function demoDevices(database: Database, o: { orgs?: string[] } = {}): Promise<{ devices: SimDevice[]; dictionary: DictionaryEntry[] }> {
  const { store, schemas } = database
  const orgs = o.orgs ?? (await store.find(PLATFORM_ORG, 'org', {}, 1000)).filter((x) => x.IsUsed !== 'no').map((x) => x._id)
  const wanted: Array<{ org: string; deviceID: string; kind: SimKind }> = []
  for (const org of orgs) {
    if (await schemas.hasCollection('sen_devices')) {
      for (const d of await store.find(org, 'sen_devices', {}, 500)) {
        const kind = str(d.type) as SimKind
        if (KINDS.has(kind) && d.IsUsed !== 'no') wanted.push({ org, deviceID: str(d.deviceID), kind })
      }
    }
    if (await schemas.hasCollection('set_printers')) {
      for (const p of await store.find(org, 'set_printers', {}, 500)) if (p.IsUsed !== 'no') wanted.push({ org, deviceID: str(p.deviceid), kind: 'printer' })
    }
  }
  const devices: SimDevice[] = []
  const seen = new Set<string>()
  for (const w of wanted) {
    const k = `${w.org}/${w.deviceID}`
    if (!SEGMENT_RE.test(w.org) || !SEGMENT_RE.test(w.deviceID) || seen.has(k)) continue
    seen.add(k)
    const cred = await issueDeviceKey(database, w.org, w.deviceID, 'device-simulator')
    devices.push({ ...w, ...cred })
  }
  const dictionary = dictionaryOf(await store.find(PLATFORM_ORG, 'dictionary', {}, 500))
  return { devices, dictionary }
}
