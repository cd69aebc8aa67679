/**
 * The tracking-credential step (SPEC §4, §5, §8), for lobby accounts only: state, license and
 * METRC API key (or "no METRC"). The key is sealed before it is stored and never shown again.
 * It is checked against METRC at once (app/metrc/credentials.server.ts): a wrong license or key
 * shows the error lines of SPEC §8 above the form again; otherwise (valid, or METRC not answering:
 * pending) the account waits for the authorization email, as SPEC says.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { advance, CredentialsInput, processingOf, submitCredentials } from '../auth/flow.server'
import { safePath } from '../auth/guard.server'
import { requireSession } from '../auth/require.server'
import { CREDENTIAL_STATES, MSG } from '../auth/rules'
import { Button, Field, Notice, Page } from '../components/ui'
import { credentialChecker } from '../metrc/credentials.server'
import { fieldErrors } from '../utils/form'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const s = await requireSession(request, context, false)
  if (s.session.step !== 'credentials') return redirect('/Welcome')
  const p = await processingOf(context.database, s.user.email)
  return json({ errorLic: p?.error_lic === 'yes', errorMetrc: p?.error_metrc === 'yes', none: !p, state: p?.state ?? '', license: p?.lic ?? '' })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const s = await requireSession(request, context, false)
  if (s.session.step !== 'credentials') return redirect('/Welcome')
  const form = Object.fromEntries(await request.formData())
  if (form.intent === 'continue' && (await processingOf(context.database, s.user.email))) {
    return advance(context.database, s.id, s.user, { step: 'facility', facility: s.session.facility }, safePath(new URL(request.url).searchParams.get('redirectTo')))
  }
  const parsed = CredentialsInput.safeParse(form)
  if (!parsed.success) {
    return json({ errors: fieldErrors(parsed.error), submitted: false }, { status: 400 })
  }
  const actor = { uid: s.user.uid, origUid: s.session.orig_uid, requestId: context.requestId, session: s.session.id_hash }
  const r = await submitCredentials(context.database, context.env.SESSION_SECRET, actor, s.user.email, parsed.data, credentialChecker(context.env))
  // a wrong license or key: the page shows the SPEC §8 error lines (the loader reads them) and the form again
  return json({ errors: {} as Record<string, string>, submitted: r.error_lic === 'no' && r.error_metrc === 'no' })
}

export default function Credentials() {
  const d = useLoaderData<typeof loader>()
  const a = useActionData<typeof action>()
  const [hydrated, setHydrated] = useState(false)
  const [v, setV] = useState({ state: d.state, license: d.license, metrc: '', nometrc: false })
  const formRef = useRef<HTMLFormElement>(null)
  const read = (form: HTMLFormElement | null) => {
    if (!form) return
    const f = form.elements
    setV({
      state: (f.namedItem('state') as HTMLSelectElement).value,
      license: (f.namedItem('license') as HTMLInputElement).value,
      metrc: (f.namedItem('metrc') as HTMLInputElement).value,
      nometrc: (f.namedItem('nometrc') as HTMLInputElement).checked,
    })
  }
  useEffect(() => {
    setHydrated(true)
    read(formRef.current)
  }, [])
  const ready = v.state !== '' && v.license.trim() !== '' && (v.metrc.trim() !== '' || v.nometrc)
  if (a?.submitted) {
    return (
      <Page title="METRC credentials">
        <Notice tone="success">{MSG.waitEmail}</Notice>
        <Form method="post">
          <input type="hidden" name="intent" value="continue" />
          <Button type="submit">Continue</Button>
        </Form>
      </Page>
    )
  }
  return (
    <Page title="METRC credentials">
      {d.errorLic || d.errorMetrc ? (
        <div role="alert" className="rounded-md border border-red-500 bg-red-950 p-3 text-red-100">
          <p className="font-semibold">{MSG.credentialsError}</p>
          <ul className="mt-1 list-disc pl-5">
            {d.errorLic ? <li>{MSG.badLicense}</li> : null}
            {d.errorMetrc ? <li>{MSG.badKey}</li> : null}
          </ul>
        </div>
      ) : d.none ? (
        <Notice>{MSG.noMetrc}</Notice>
      ) : null}
      <Form ref={formRef} method="post" className="flex flex-col gap-4" onChange={(e) => read(e.currentTarget)}>
        <div className="flex flex-col gap-1">
          <label htmlFor="f-state" className="text-sm text-slate-300">
            State
          </label>
          <select id="f-state" name="state" defaultValue={d.state} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3" aria-invalid={a?.errors?.state ? true : undefined}>
            <option value="">Choose…</option>
            {CREDENTIAL_STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
          {a?.errors?.state ? <p className="text-sm text-red-300">{a.errors.state}</p> : null}
        </div>
        <Field label="State License" name="license" defaultValue={d.license} error={a?.errors?.license} />
        <Field label="METRC API Key" name="metrc" type="password" autoComplete="off" error={a?.errors?.metrc} />
        <label className="flex min-h-11 items-center gap-2">
          <input type="checkbox" name="nometrc" value="yes" className="h-5 w-5" /> I do not use METRC
        </label>
        <Button type="submit" name="intent" value="submit" disabled={hydrated && !ready}>
          Submit
        </Button>
      </Form>
    </Page>
  )
}
