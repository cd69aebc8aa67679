/**
 * The device buttons of SPEC §2.6 beside a field: Remote Scale for measures, Remote for remote
 * fields, RFID for fields a scanner fills. A click asks the server (POST /devices/scale|scan), which
 * talks to the device over the bus and answers with the reading; the field fills, or the reason
 * it did not is shown beside the button. They need JavaScript: until the page is hydrated (or with
 * it off) they are disabled, and a field with no device set up says so.
 */
import { useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { FieldDef } from '../../schemas/table-schema'

export type DeviceKind = 'scale' | 'remote' | 'rfid'

/** What the edit page knows of a field's devices (app/devices/lookup.server.ts FieldDevice). */
export interface FieldDeviceView {
  kind: 'scale' | 'rfid'
  deviceid: string | null
  name: string | null
  args: 'user' | 'other'
}

export type DeviceReply = { kind: 'scale'; weight: number; unit: string } | { kind: 'rfid'; code: string }

const MISSING: Record<DeviceKind, string> = { scale: 'No scale connected', remote: 'No remote device connected', rfid: 'No RFID reader connected' }

/** The devices that can fill a field: a scale for measures, the remote for remote fields, an RFID reader where the schema says so. */
export function devicesOf(f: Pick<FieldDef, 'type' | 'remote' | 'scanner'>): DeviceKind[] {
  const out: DeviceKind[] = []
  if (f.type === 'measure' || f.scanner === 'scale') out.push('scale')
  if (f.type === 'remote' || f.remote) out.push('remote')
  if (f.scanner === 'rfid') out.push('rfid')
  return out
}

type Busy = { state: 'idle' } | { state: 'waiting'; kind: string } | { state: 'done' | 'error'; text: string }

export function DeviceButtons(p: { f: FieldDef; fieldId: string; t: (k: string) => string; devices?: FieldDeviceView[]; screen?: string; onReply?: (r: DeviceReply) => string | null }) {
  const { f, fieldId, t, devices = [], screen = '' } = p
  const hydrated = useHydrated()
  const [busy, setBusy] = useState<Busy>({ state: 'idle' })
  const kinds = devicesOf(f)
  if (!kinds.length && !devices.length) return null
  const isRemote = f.type === 'remote' || !!f.remote
  const usable = devices.filter((d) => d.kind === 'rfid' || d.deviceid)
  const buttons = usable.map((d) => ({ d, label: isRemote ? 'Remote' : d.kind === 'scale' ? 'Remote Scale' : 'RFID' }))
  const missing = kinds.filter((k) => !usable.some((d) => d.kind === k || (k === 'remote' && isRemote)))
  const status = `${fieldId}-device-status`

  async function ask(d: FieldDeviceView) {
    setBusy({ state: 'waiting', kind: d.kind })
    try {
      const res = await fetch(`/devices/${d.kind === 'scale' ? 'scale' : 'scan'}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ screen, field: f.key }),
      })
      const body = (await res.json().catch(() => null)) as { weight?: number; unit?: string; code?: string; error?: { message?: string }; errors?: Array<{ message?: string }> } | null
      if (!res.ok || !body) return setBusy({ state: 'error', text: body?.errors?.[0]?.message ?? body?.error?.message ?? t('The device request failed. Try again.') })
      const reply: DeviceReply = d.kind === 'scale' ? { kind: 'scale', weight: Number(body.weight), unit: String(body.unit) } : { kind: 'rfid', code: String(body.code) }
      const problem = p.onReply?.(reply) ?? null
      if (problem) return setBusy({ state: 'error', text: t(problem) })
      setBusy({ state: 'done', text: reply.kind === 'scale' ? `${t('Read')} ${reply.weight} ${reply.unit}` : `${t('Scanned')} ${reply.code}` })
    } catch {
      setBusy({ state: 'error', text: t('The device request failed. Try again.') })
    }
  }

  return (
    <span className="flex flex-wrap items-center gap-2">
      {buttons.map(({ d, label }) => (
        <button
          key={d.kind}
          type="button"
          disabled={!hydrated || busy.state === 'waiting'}
          onClick={() => void ask(d)}
          aria-describedby={status}
          data-device={d.kind}
          title={d.name ?? undefined}
          className="min-h-11 rounded-md border border-slate-600 px-3 text-sm disabled:cursor-not-allowed disabled:opacity-50"
        >
          {t(label)}
        </button>
      ))}
      {missing.map((k) => (
        <span key={k} className="inline-flex items-center gap-2">
          <button type="button" disabled aria-describedby={`${fieldId}-${k}-state`} data-device={k} className="min-h-11 rounded-md border border-slate-600 px-3 text-sm disabled:cursor-not-allowed disabled:opacity-50">
            {t(k === 'scale' ? 'Remote Scale' : k === 'rfid' ? 'RFID' : 'Remote')}
          </button>
          <span id={`${fieldId}-${k}-state`} className="text-xs text-slate-400">
            {t(MISSING[k])}
          </span>
        </span>
      ))}
      <span id={status} role="status" aria-live="polite" className={`text-xs ${busy.state === 'error' ? 'text-red-300' : 'text-slate-400'}`}>
        {busy.state === 'waiting' ? t(busy.kind === 'scale' ? 'Waiting for the scale…' : 'Waiting for a scan…') : busy.state === 'idle' ? (buttons.length && !hydrated ? t('Device buttons need JavaScript') : '') : busy.text}
      </span>
    </span>
  )
}
