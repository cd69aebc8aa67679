/**
 * Print label (SPEC §4): sends a print request for this record to a label printer (POST
 * /devices/print → `{org}/request/{printer}` on the bus). The button stays disabled for 20 s after
 * a request (SPEC §9), so a double tap does not print twice. With more than one printer for the
 * table, a picker chooses which. Needs JavaScript, like the device buttons.
 */
import { useEffect, useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { PrinterIcon } from '../icons'

export const PRINT_COOLDOWN_MS = 20_000

export function PrintButton({ screen, id, printers, t }: { screen: string; id: string; printers: Array<{ id: string; name: string; online: boolean }>; t: (k: string) => string }) {
  const hydrated = useHydrated()
  const [printer, setPrinter] = useState(printers[0]?.id ?? '')
  const [cooling, setCooling] = useState(false)
  const [text, setText] = useState<{ error: boolean; text: string } | null>(null)
  useEffect(() => {
    if (!cooling) return
    const tm = setTimeout(() => setCooling(false), PRINT_COOLDOWN_MS)
    return () => clearTimeout(tm)
  }, [cooling])
  if (!printers.length) return null
  async function print() {
    setCooling(true)
    setText(null)
    try {
      const res = await fetch('/devices/print', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ screen, id, printer }) })
      const body = (await res.json().catch(() => null)) as { printer?: string; error?: { message?: string }; errors?: Array<{ message?: string }> } | null
      if (!res.ok) return setText({ error: true, text: body?.errors?.[0]?.message ?? body?.error?.message ?? t('The print request failed. Try again.') })
      setText({ error: false, text: `${t('Sent to')} ${body?.printer ?? ''}` })
    } catch {
      setText({ error: true, text: t('The print request failed. Try again.') })
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {printers.length > 1 ? (
        <select value={printer} onChange={(e) => setPrinter(e.target.value)} aria-label={t('Printer')} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-2 text-sm">
          {printers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
              {p.online ? '' : ` (${t('offline')})`}
            </option>
          ))}
        </select>
      ) : null}
      <button type="button" onClick={() => void print()} disabled={!hydrated || cooling} data-print className="inline-flex min-h-11 items-center rounded-md border border-slate-600 px-3 text-sm disabled:cursor-not-allowed disabled:opacity-50">
        <PrinterIcon /> <span className="ml-2">{t('Print label')}</span>
      </button>
      <span role="status" aria-live="polite" className={`text-xs ${text?.error ? 'text-red-300' : 'text-slate-400'}`}>
        {text?.text ?? ''}
      </span>
    </div>
  )
}
