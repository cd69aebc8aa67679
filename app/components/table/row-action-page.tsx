/**
 * The confirm page of a row action (decision 038): what will change, in words; what the action
 * needs (a room, a weight per plant, package lines); Confirm or Cancel. A plain form post, so it
 * works without JavaScript; with it, the Remote Scale fills the weights one row after another
 * (running total and count), a scan fills a tag field, and a long action shows that it is working.
 */
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useRef, useState } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { AskField } from '../../records/row-actions.server'
import type { RowActionPage } from '../../screens/row-action.server'
import { BusyButton } from '../busy-button'
import { useT } from '../../i18n/t'
import { Notice } from '../ui'

const input = 'min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-lg text-slate-100 focus:border-canopy-400 focus:outline-none'
const big = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-4 text-lg font-medium'

async function askDevice(kind: 'scale' | 'scan', screen: string, field: string): Promise<{ weight?: number; unit?: string; code?: string; error?: string }> {
  const res = await fetch(`/devices/${kind}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ screen, field }) })
  const body = (await res.json().catch(() => null)) as { weight?: number; unit?: string; code?: string; error?: { message?: string }; errors?: Array<{ message?: string }> } | null
  if (!res.ok || !body) return { error: body?.errors?.[0]?.message ?? body?.error?.message ?? 'The device request failed. Try again.' }
  return { weight: body.weight, unit: body.unit, code: body.code }
}

/** One weight per selected row; Remote Scale fills the current row and moves to the next; or one total. */
function Weights({ f, rows }: { f: AskField; rows: RowActionPage['rows'] }) {
  const t = useT()
  const hydrated = useHydrated()
  const units = f.units ?? ['g']
  const [values, setValues] = useState<Record<string, string>>({})
  const [unit, setUnit] = useState(units[0])
  const [status, setStatus] = useState('')
  const [busy, setBusy] = useState(false)
  const refs = useRef<Record<string, HTMLInputElement | null>>({})
  const filled = rows.filter((r) => values[r.id] && Number(values[r.id]) > 0)
  const total = Math.round(filled.reduce((s, r) => s + Number(values[r.id]), 0) * 10_000) / 10_000
  const current = rows.find((r) => !(values[r.id] && Number(values[r.id]) > 0))
  async function weigh() {
    if (!current || !f.scale) return
    setBusy(true)
    setStatus(t('Waiting for the scale…'))
    const r = await askDevice('scale', f.scale.screen, f.scale.field).catch(() => ({ error: 'The device request failed. Try again.' }) as { error: string; weight?: number; unit?: string })
    setBusy(false)
    if ('error' in r && r.error) return setStatus(t(r.error))
    const w = String(r.weight)
    if (r.unit && units.includes(r.unit)) setUnit(r.unit)
    setValues((v) => ({ ...v, [current.id]: w }))
    setStatus(`${t('Read')} ${w} ${r.unit ?? unit} · ${current.label}`)
    const next = rows[rows.indexOf(current) + 1]
    if (next) refs.current[next.id]?.focus()
  }
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border border-slate-700 p-3">
      <legend className="px-1 text-slate-300">{f.label}</legend>
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2">
          {t('Unit')}
          <select name={`${f.key}.unit`} value={unit} onChange={(e) => setUnit(e.target.value)} className={input}>
            {units.map((u) => (
              <option key={u}>{u}</option>
            ))}
          </select>
        </label>
        {f.scale ? (
          <button type="button" className={`${big} border border-canopy-500 text-canopy-100 disabled:opacity-50`} disabled={!hydrated || busy || !current} onClick={() => void weigh()} data-testid="weigh">
            {t('Remote Scale')}
          </button>
        ) : null}
        <span role="status" data-testid="weigh-total" className="text-xl tabular-nums">
          {filled.length} / {rows.length} {t('weighed')} · {t('Total')} {total} {unit}
        </span>
      </div>
      {status ? <p className="text-sm text-slate-300" role="status" data-testid="weigh-status">{status}</p> : null}
      <ol className="grid gap-2 sm:grid-cols-2">
        {rows.map((r) => (
          <li key={r.id} className={`flex items-center gap-2 rounded px-2 ${current?.id === r.id ? 'bg-slate-800' : ''}`}>
            <label htmlFor={`w-${r.id}`} className="min-w-0 flex-1 truncate font-mono text-sm">
              {r.label}
            </label>
            <input
              id={`w-${r.id}`}
              ref={(el) => void (refs.current[r.id] = el)}
              name={`${f.key}.${r.id}`}
              inputMode="decimal"
              className={`${input} w-32 text-right`}
              value={values[r.id] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [r.id]: e.target.value }))}
            />
          </li>
        ))}
      </ol>
      <label className="flex flex-wrap items-center gap-2">
        {t('Or one total for all of them')}
        <input name={`${f.key}.total`} inputMode="decimal" className={`${input} w-40 text-right`} />
      </label>
    </fieldset>
  )
}

function Lines({ f }: { f: AskField }) {
  const t = useT()
  const n = f.lines ?? 3
  return (
    <fieldset className="flex flex-col gap-2 rounded-md border border-slate-700 p-3">
      <legend className="px-1 text-slate-300">{f.label}</legend>
      {f.help ? <p className="text-sm text-slate-400">{t(f.help)}</p> : null}
      {Array.from({ length: n }, (_, i) => (
        <div key={i} className="flex flex-wrap items-end gap-2" data-testid={`line-${i + 1}`}>
          <span className="w-8 text-slate-400">{i + 1}.</span>
          {(f.columns ?? []).map((c) => (
            <label key={c.key} className="flex flex-col text-sm">
              {t(c.label)} {i + 1}
              {c.kind === 'select' ? (
                <select name={`${f.key}.${i}.${c.key}`} className={input} aria-label={`${c.label} ${i + 1}`}>
                  <option value="" />
                  {(c.options ?? []).map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input name={`${f.key}.${i}.${c.key}`} inputMode={c.kind === 'number' ? 'decimal' : undefined} className={input} aria-label={`${c.label} ${i + 1}`} />
              )}
            </label>
          ))}
        </div>
      ))}
    </fieldset>
  )
}

function Ask({ f, rows }: { f: AskField; rows: RowActionPage['rows'] }) {
  const t = useT()
  if (f.kind === 'weights') return <Weights f={f} rows={rows} />
  if (f.kind === 'lines') return <Lines f={f} />
  const id = `ask-${f.key}`
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-slate-300">
        {t(f.label)}
        {f.required ? <span aria-hidden> *</span> : null}
      </label>
      {f.kind === 'select' ? (
        <select id={id} name={f.key} defaultValue={f.value ?? ''} required={f.required} className={input}>
          {!f.value || f.blank ? <option value="">{t(f.blank ?? 'Choose…')}</option> : null}
          {(f.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : f.kind === 'textarea' ? (
        <textarea id={id} name={f.key} defaultValue={f.value} rows={4} className={input} autoComplete="off" />
      ) : (
        <input id={id} name={f.key} type={f.kind === 'date' ? 'date' : 'text'} inputMode={f.kind === 'number' ? 'decimal' : undefined} defaultValue={f.value} required={f.required} className={input} autoComplete="off" />
      )}
      {f.help ? <p className="text-sm text-slate-400">{t(f.help)}</p> : null}
    </div>
  )
}

export function RowActionView() {
  const t = useT()
  const loaded = useLoaderData<RowActionPage>()
  const acted = useActionData<Partial<RowActionPage> & { error?: string }>()
  const data = acted && 'kind' in acted && acted.kind === 'row-action' ? (acted as RowActionPage) : loaded
  const error = acted?.error
  const nav = useNavigation()
  const busy = nav.state === 'submitting' && nav.formData?.get('intent') !== 'preview'
  const showList = !data.ask.some((f) => f.kind === 'weights')
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-semibold text-canopy-400">{t(data.title)}</h1>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <section aria-label={t('What will change')} className="rounded-md border border-slate-600 bg-slate-900 p-3 text-lg" data-testid="action-summary">
        {data.summary.map((s) => (
          <p key={s}>{s}</p>
        ))}
      </section>
      {showList && data.rows.length ? (
        <details className="text-slate-300">
          <summary className="min-h-11 cursor-pointer py-2">
            {data.count} {t(data.all ? 'rows: every row of the view' : 'selected rows')}
          </summary>
          <p className="font-mono text-sm">{data.rows.map((r) => r.label).join(', ')}{data.count > data.rows.length ? ', …' : ''}</p>
        </details>
      ) : null}
      <Form method="post" className="flex flex-col gap-4">
        <input type="hidden" name="stamp" value={data.stamp} />
        <input type="hidden" name="n" value={data.count} />
        {data.ask.map((f) => (
          <Ask key={f.key} f={f} rows={data.rows} />
        ))}
        <div className="flex flex-wrap items-center gap-3">
          {data.preview ? (
            <button type="submit" name="intent" value="preview" className={`${big} border border-canopy-500 text-canopy-100 hover:bg-slate-800`}>
              {t('Preview')}
            </button>
          ) : null}
          <BusyButton type="submit" busy={busy} busyText={t('Working…')} className={`${big} bg-canopy-600 text-white hover:bg-canopy-500 disabled:bg-slate-700`}>
            {t('Confirm')}: {t(data.title)} ({data.count})
          </BusyButton>
          <Link to={data.back} className={`${big} border border-slate-600 hover:bg-slate-800`}>
            {t('Cancel')}
          </Link>
        </div>
        {busy ? (
          <div className="flex items-center gap-3" data-testid="action-progress">
            <progress className="h-3 w-64" aria-label={t('Working')} />
            <span>
              {t('Working on')} {data.count} {t('rows, in one transaction…')}
            </span>
          </div>
        ) : null}
      </Form>
    </div>
  )
}
