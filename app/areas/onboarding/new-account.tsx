/**
 * /SupNewAccount: a new customer in one form. Without JavaScript every section shows on one page
 * and one button creates the account; with JavaScript the sections are steps (Next checks the
 * step's fields with the same zod schema the server uses). Below: lobby sign-ups waiting for approval.
 */
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, Field, Notice } from '../../components/ui'
import type { newAccountAction, newAccountLoader } from './new-account-page.server'
import { newAccountSchema } from './rules'
import { issueMessage } from '../../utils/zod-messages'

const STEPS: Array<{ title: string; fields: string[] }> = [
  { title: 'Facility', fields: ['name', 'fullName', 'kind', 'state', 'license', 'timezone', 'street', 'city', 'zip'] },
  { title: 'Plan and modules', fields: ['modules', 'wid'] },
  { title: 'First admin', fields: ['firstname', 'lastname', 'email'] },
]
const box = 'min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100'

function Select({ label, name, options, value, error, onChange }: { label: string; name: string; options: Array<{ v: string; l: string }>; value?: string; error?: string; onChange?: (v: string) => void }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`f-${name}`} className="text-sm text-slate-300">
        {label}
      </label>
      <select id={`f-${name}`} name={name} defaultValue={value ?? ''} aria-invalid={error ? true : undefined} aria-describedby={error ? `f-${name}-error` : undefined} className={box} onChange={(e) => onChange?.(e.currentTarget.value)}>
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o.v} value={o.v}>
            {o.l}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`f-${name}-error`} className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  )
}

function Checks({ legend, name, options, chosen, error }: { legend: string; name: string; options: Array<{ v: string; l: string }>; chosen: string[]; error?: string }) {
  return (
    <fieldset className="flex flex-col gap-1" aria-describedby={error ? `f-${name}-error` : undefined}>
      <legend className="mb-1 text-sm text-slate-300">{legend}</legend>
      <div className="grid grid-cols-1 gap-1 sm:grid-cols-2">
        {options.map((o) => (
          <label key={o.v} className="flex min-h-11 items-center gap-3 rounded-md border border-slate-700 px-3">
            <input type="checkbox" name={name} value={o.v} defaultChecked={chosen.includes(o.v)} className="h-5 w-5" />
            {o.l}
          </label>
        ))}
      </div>
      {error ? (
        <p id={`f-${name}-error`} className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

function Step({ n, current, steps, children }: { n: number; current: number | null; steps: boolean; children: ReactNode }) {
  return (
    <fieldset hidden={steps && current !== n} className="flex flex-col gap-4 rounded-lg border border-slate-800 p-4" aria-labelledby={`step-${n}`}>
      <legend id={`step-${n}`} className="px-1 text-lg font-semibold">
        {n + 1}. {STEPS[n].title}
      </legend>
      {children}
    </fieldset>
  )
}

export function NewAccountPage() {
  const d = useLoaderData<typeof newAccountLoader>()
  const a = useActionData<typeof newAccountAction>()
  const nav = useNavigation()
  const [js, setJs] = useState(false)
  const [step, setStep] = useState(0)
  const [local, setLocal] = useState<Record<string, string>>({})
  const formRef = useRef<HTMLFormElement>(null)
  const zoneRef = useRef<string>('')
  useEffect(() => setJs(true), [])
  const serverErrors = a?.errors ?? {}
  const errors: Record<string, string> = { ...serverErrors, ...local }
  // a refused create opens the first step with a problem
  useEffect(() => {
    const keys = Object.keys(a?.errors ?? {})
    const first = STEPS.findIndex((s) => s.fields.some((f) => keys.includes(f)))
    if (first >= 0) setStep(first)
    setLocal({})
  }, [a])
  const v = (a?.values ?? d.prefill) as Record<string, string | string[] | undefined>
  const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : '')
  const list = (k: string) => (Array.isArray(v[k]) ? (v[k] as string[]) : typeof v[k] === 'string' ? [v[k] as string] : [])

  const next = () => {
    const form = formRef.current
    if (!form) return
    const fd = new FormData(form)
    const obj: Record<string, unknown> = {}
    for (const k of STEPS[step].fields) obj[k] = k === 'modules' || k === 'wid' ? fd.getAll(k) : (fd.get(k) ?? '')
    const pick = Object.fromEntries(STEPS[step].fields.map((k) => [k, true])) as { [K in keyof typeof newAccountSchema.shape]?: true }
    const r = newAccountSchema.pick(pick).safeParse(obj)
    if (!r.success) {
      const e: Record<string, string> = {}
      for (const i of r.error.issues) e[String(i.path[0])] ??= issueMessage(i)
      setLocal(e)
      return
    }
    setLocal({})
    setStep(step + 1)
  }

  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-5 p-4" aria-labelledby="na-title">
      <h1 id="na-title" className="text-2xl font-semibold text-canopy-400">
        New account
      </h1>
      {d.created ? (
        <Notice tone={d.created.mailed ? 'success' : 'error'}>
          {d.created.moved
            ? `The account ${d.created.org} is ready; ${d.created.email} was moved from the lobby and ${d.created.mailed ? 'sent the authorization email' : 'could not be mailed (check the mail settings)'}.`
            : `The account ${d.created.org} is created; ${d.created.mailed ? `an invitation was sent to ${d.created.email}` : `the invitation to ${d.created.email} could not be mailed: resend it from Users`}.`}
        </Notice>
      ) : null}
      {serverErrors.form || serverErrors.from ? <Notice tone="error">{serverErrors.form ?? serverErrors.from}</Notice> : null}
      {js ? (
        <ol aria-label="Steps" className="flex flex-wrap gap-2 text-sm">
          {STEPS.map((s, i) => (
            <li key={s.title} aria-current={i === step ? 'step' : undefined} className={`rounded-full border px-3 py-1 ${i === step ? 'border-canopy-400 text-canopy-300' : 'border-slate-700 text-slate-400'}`}>
              {i + 1}. {s.title}
            </li>
          ))}
        </ol>
      ) : null}
      <Form method="post" ref={formRef} className="flex flex-col gap-4" aria-label="New account" noValidate>
        {str('from') ? <input type="hidden" name="from" value={str('from')} /> : null}
        <Step n={0} current={step} steps={js}>
          <Field label="Full name" name="fullName" defaultValue={str('fullName')} error={errors.fullName} />
          <Field label="Short name (the organisation key)" name="name" defaultValue={str('name')} error={errors.name} hint="3–40 lower-case letters, digits or dashes, e.g. emerald-bay" autoCapitalize="none" />
          <Select label="Kind" name="kind" value={str('kind')} error={errors.kind} options={['cultivation', 'distribution', 'testing', 'retail'].map((k) => ({ v: k, l: k[0].toUpperCase() + k.slice(1) }))} />
          <Select
            label="State"
            name="state"
            value={str('state')}
            error={errors.state}
            options={d.states.map((s) => ({ v: s, l: s }))}
            onChange={(s) => {
              const tz = formRef.current?.elements.namedItem('timezone') as HTMLSelectElement | null
              if (tz && (!tz.value || tz.value === zoneRef.current) && d.zoneOfState[s]) tz.value = zoneRef.current = d.zoneOfState[s]
            }}
          />
          <Field label="State license" name="license" defaultValue={str('license')} error={errors.license} hint="As issued by the state, e.g. CCL21-0001234" autoCapitalize="characters" />
          <Select label="Time zone" name="timezone" value={str('timezone')} error={errors.timezone} options={d.zones.map((z) => ({ v: z, l: z.replace('_', ' ') }))} />
          <Field label="Street address" name="street" defaultValue={str('street')} error={errors.street} autoComplete="street-address" />
          <div className="grid grid-cols-2 gap-3">
            <Field label="City" name="city" defaultValue={str('city')} error={errors.city} />
            <Field label="ZIP code" name="zip" defaultValue={str('zip')} error={errors.zip} inputMode="numeric" />
          </div>
        </Step>
        <Step n={1} current={step} steps={js}>
          <Checks legend="Modules" name="modules" options={d.modules.map((m) => ({ v: m.code, l: m.name }))} chosen={list('modules')} error={errors.modules} />
          <Checks legend="Allowed workflows" name="wid" options={d.workflows.map((w) => ({ v: w.id, l: `${w.module}: ${w.name}` }))} chosen={list('wid')} error={errors.wid} />
        </Step>
        <Step n={2} current={step} steps={js}>
          <div className="grid grid-cols-2 gap-3">
            <Field label="First name" name="firstname" defaultValue={str('firstname')} error={errors.firstname} />
            <Field label="Last name" name="lastname" defaultValue={str('lastname')} error={errors.lastname} />
          </div>
          <Field label="Email" name="email" type="email" defaultValue={str('email')} error={errors.email} autoComplete="off" hint={str('from') ? 'The lobby sign-up is moved into the new facility and gets the authorization email.' : 'The admin gets an invitation to choose a password.'} />
        </Step>
        <div className="flex flex-wrap gap-3">
          {js && step > 0 ? (
            <Button type="button" tone="plain" onClick={() => setStep(step - 1)}>
              Back
            </Button>
          ) : null}
          {js && step < STEPS.length - 1 ? (
            <Button type="button" onClick={next}>
              Next
            </Button>
          ) : (
            <Button type="submit" disabled={nav.state !== 'idle'}>
              Create account
            </Button>
          )}
        </div>
      </Form>
      <section aria-labelledby="signups-title" className="flex flex-col gap-2">
        <h2 id="signups-title" className="text-lg font-semibold">
          Lobby sign-ups waiting for approval
        </h2>
        {d.signups.length ? (
          <ul className="flex flex-col gap-2">
            {d.signups.map((u) => (
              <li key={u.uid} className="flex flex-wrap items-center gap-3 rounded-md border border-slate-800 p-3">
                <span className="mr-auto">
                  <strong>{u.name || u.email}</strong> {u.email} · {u.state} {u.license} · METRC {u.metrc}
                </span>
                <Link to={`/SupNewAccount?from=${encodeURIComponent(u.uid)}`} reloadDocument className="flex min-h-11 items-center rounded-md border border-slate-600 px-4" aria-label={`Approve ${u.email}`}>
                  Approve
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-400">No sign-up is waiting.</p>
        )}
      </section>
    </section>
  )
}
