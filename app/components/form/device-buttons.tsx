/**
 * The device buttons of SPEC §2.6 beside a field: Remote Scale for measures, Remote for remote
 * fields, RFID for fields a scanner fills. They call the device flows of the real-time issue (8);
 * until a device reports in they render disabled, with the reason in words beside them.
 */
import type { FieldDef } from '../../schemas/table-schema'

export type DeviceKind = 'scale' | 'remote' | 'rfid'

const BUTTON: Record<DeviceKind, { label: string; missing: string }> = {
  scale: { label: 'Remote Scale', missing: 'No scale connected' },
  remote: { label: 'Remote', missing: 'No remote device connected' },
  rfid: { label: 'RFID', missing: 'No RFID reader connected' },
}

/** The devices that can fill a field: a scale for measures, the remote for remote fields, an RFID reader where the schema says so. */
export function devicesOf(f: Pick<FieldDef, 'type' | 'remote' | 'scanner'>): DeviceKind[] {
  const out: DeviceKind[] = []
  if (f.type === 'measure' || f.scanner === 'scale') out.push('scale')
  if (f.type === 'remote' || f.remote) out.push('remote')
  if (f.scanner === 'rfid') out.push('rfid')
  return out
}

/** Disabled buttons with the reason; `connected` (from the real-time issue) will enable them. */
export function DeviceButtons({ f, fieldId, t, connected = [] }: { f: FieldDef; fieldId: string; t: (k: string) => string; connected?: DeviceKind[] }) {
  const kinds = devicesOf(f)
  if (!kinds.length) return null
  return (
    <span className="flex flex-wrap items-center gap-2">
      {kinds.map((k) => {
        const on = connected.includes(k)
        const hint = `${fieldId}-${k}-state`
        return (
          <span key={k} className="inline-flex items-center gap-2">
            <button type="button" disabled={!on} aria-describedby={on ? undefined : hint} data-device={k} className="min-h-11 rounded-md border border-slate-600 px-3 text-sm disabled:cursor-not-allowed disabled:opacity-50">
              {t(BUTTON[k].label)}
            </button>
            {on ? null : (
              <span id={hint} className="text-xs text-slate-400">
                {t(BUTTON[k].missing)}
              </span>
            )}
          </span>
        )
      })}
    </span>
  )
}
