/**
 * The login view (SPEC §2.4, also mapped to /) and, once signed in, the start page with the
 * screens the user is entitled to. Works without JavaScript: the server validates and answers
 * with the same messages; JavaScript adds show/hide password and disables Login until filled.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams, type ClientActionFunctionArgs } from '@remix-run/react'
import { postOrUnreachable, skipRevalidationWhenUnreachable, unreachableResult } from '../client/unreachable-action'
import { useEffect, useRef, useState } from 'react'
import { checkLogin, findUser } from '../auth/accounts.server'
import { visibleRoutes } from '../auth/entitlements'
import { afterStep, processingOf } from '../auth/flow.server'
import { startSignIn } from '../auth/guard.server'
import { safePath } from '../utils/safe-url'
import { sendEmailVerification, sendPasswordReset } from '../auth/reset.server'
import { requireSession } from '../auth/require.server'
import { email as emailRule, loginSchema, MSG, PASSWORD_HINT } from '../auth/rules'
import { endSession, loadSession, readSessionId, sessionCookie } from '../auth/session.server'
import { Button, Field, Notice } from '../components/ui'
import { policiesWaitingFor } from '../areas/documents/policies.server'
import { WaitingList } from '../areas/documents/waiting-list'
import { myDay } from '../areas/dashboards/my-day.server'
import { MyDayView } from '../areas/dashboards/my-day'
import { MODULES } from '../route-map'
import { useRootData } from '../root'
import { APP_NAME, APP_VERSION } from '../version'
import { fieldErrors } from '../utils/form'
import { issueMessage } from '../utils/zod-messages'

export const meta: MetaFunction = () => [{ title: `${APP_NAME} ${APP_VERSION}` }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const id = readSessionId(request)
  const look = await loadSession(context.database, id, context.env.IDLE_TIMEOUT_S)
  const orgs = await context.database.store.count('auth', 'org').catch(() => 0)
  const base = { version: APP_VERSION, facilities: Math.max(0, orgs - 1), database: context.database.db.kind }
  if (look.state !== 'active') return json({ ...base, menu: null, unverified: false, processing: false, waiting: [] })
  if (look.session.step !== 'done') throw redirect(afterStep(look.session.step, safePath(new URL(request.url).searchParams.get('redirectTo'))))
  const user = (await findUser(context.database, look.session.uid))!
  const routes = visibleRoutes(user, look.session.facility ?? '')
  const menu = MODULES.map((m) => ({ module: m.name as string, routes: routes.filter((r) => r.module === m.code).map((r) => ({ path: r.path, title: r.title })) }))
    .concat([{ module: 'Administration', routes: routes.filter((r) => r.module === 'admin').map((r) => ({ path: r.path, title: r.title })) }])
    .concat([{ module: 'Super Admin', routes: routes.filter((r) => r.module === 'super').map((r) => ({ path: r.path, title: r.title })) }])
    .filter((g) => g.routes.length > 0)
  const p = user.org === 'lobby' ? await processingOf(context.database, user.email) : undefined
  const unverified = (user as { emailVerified?: string }).emailVerified !== 'yes'
  // issue 26: the policies waiting for this user to read and acknowledge (app/areas/documents)
  const waiting = await policiesWaitingFor(context.database, user, look.session.facility ?? '')
  // issue 25: the user's day in this facility: today's tasks, alerts, dashboard tiles (app/areas/dashboards)
  const day = await myDay(context, user, look.session.facility ?? '').catch((e: Error) => {
    context.logger.warn({ err: e.message }, 'the start page could not read the day')
    return null
  })
  return json({ ...base, menu, unverified, waiting, day, processing: !!p && p.error_lic !== 'yes' && p.error_metrc !== 'yes' })
}

/** `email`: what was typed, so a refused login (without JavaScript: a new page) keeps it (issue 32) */
type ActionData = { errors?: Record<string, string>; message?: string; tone?: 'error' | 'success'; email?: string }

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const intent = String(form.get('intent') ?? 'login')
  if (intent === 'logout') {
    const id = readSessionId(request)
    if (id) await endSession(context.database, id, 'logout')
    // SPEC §4: logout shows the login view (with a line that says so)
    return redirect('/Welcome?msg=loggedout', { headers: { 'Set-Cookie': sessionCookie(request, null) } })
  }
  if (intent === 'verify-email') {
    const s = await requireSession(request, context)
    await sendEmailVerification(context, s.user, new URL(request.url).origin)
    return json<ActionData>({ message: `A link to confirm your address has been sent to ${s.user.email}.`, tone: 'success' })
  }
  if (intent === 'reset') {
    const e = emailRule.safeParse(form.get('email') ?? '')
    if (!e.success) return json<ActionData>({ errors: { email: issueMessage(e.error.issues[0]) } }, { status: 400 })
    const sent = await sendPasswordReset(context, e.data, new URL(request.url).origin)
    if (!sent.ok) return json<ActionData>({ message: sent.message, tone: 'error', email: e.data }, { status: 429, headers: { 'Retry-After': String(sent.retryAfterS) } })
    return json<ActionData>({ message: MSG.resetSent, tone: 'success' })
  }
  const parsed = loginSchema.safeParse({ email: form.get('email') ?? '', password: form.get('password') ?? '' })
  const email = String(form.get('email') ?? '').slice(0, 320)
  if (!parsed.success) {
    return json<ActionData>({ errors: fieldErrors(parsed.error), email }, { status: 400 })
  }
  let r: Awaited<ReturnType<typeof checkLogin>>
  try {
    r = await checkLogin(context.database, parsed.data.email, parsed.data.password, context.clientIp ?? 'unknown')
  } catch (e) {
    context.logger.error({ err: e }, 'login failed on the server')
    return json<ActionData>({ message: MSG.generic, tone: 'error', email }, { status: 500 })
  }
  if (!r.ok) {
    const message = r.reason === 'locked' ? MSG.locked(r.lockMinutes ?? 1) : r.reason === 'noweb' ? MSG.noWeb : MSG.loginFailed
    return json<ActionData>({ message, tone: 'error', email }, { status: r.reason === 'locked' ? 429 : 401 })
  }
  const old = readSessionId(request)
  if (old) await endSession(context.database, old, 'replaced')
  // a shared link names its facility (`facility=` in its address): signed in there, no facility to choose
  const redirectTo = safePath(String(form.get('redirectTo') ?? ''))
  const facility = redirectTo ? new URL(redirectTo, 'http://x').searchParams.get('facility') : null
  const s = await startSignIn(context, request, r.user, { kiosk: form.get('kiosk') === '1', facility })
  const target = afterStep(s.step, redirectTo)
  return redirect(target, { headers: { 'Set-Cookie': sessionCookie(request, s.id) } })
}

/**
 * With JavaScript, a login or reset request that reaches no server (it is down, or a proxy in front
 * answers for it) keeps the form and what was typed and says SPEC §8's 'Servers unreachable. …'
 * instead of an error page. Without JavaScript the browser shows its own page (decision 060).
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const email = String((await request.clone().formData()).get('email') ?? '').slice(0, 320)
  return postOrUnreachable<ActionData>(() => serverAction<ActionData>(), () => unreachableResult(MSG.unreachable, { email }))
}
export const shouldRevalidate = skipRevalidationWhenUnreachable

function LoginForm() {
  const data = useActionData<ActionData>()
  const root = useRootData()
  const nav = useNavigation()
  const [params] = useSearchParams()
  const reset = params.get('mode') === 'reset'
  const [hydrated, setHydrated] = useState(false)
  const [show, setShow] = useState(false)
  const [filled, setFilled] = useState({ email: false, password: false })
  const formRef = useRef<HTMLFormElement>(null)
  const readFilled = (f: HTMLFormElement | null) =>
    setFilled({ email: !!(f?.elements.namedItem('email') as HTMLInputElement | null)?.value, password: !!(f?.elements.namedItem('password') as HTMLInputElement | null)?.value })
  // what was typed before the page hydrated counts too
  useEffect(() => {
    setHydrated(true)
    readFilled(formRef.current)
  }, [])
  const message = data?.message ?? root?.message
  const disabled = hydrated && (!filled.email || (!reset && !filled.password))
  return (
    <section aria-labelledby="login-title" className="flex flex-col gap-4 rounded-lg border border-slate-800 bg-slate-900/60 p-5">
      <h2 id="login-title" className="text-xl font-semibold">
        {reset ? 'Reset Password' : 'Login'}
      </h2>
      {message ? (
        <Notice tone={data?.tone ?? (root?.message ? 'info' : 'error')} id="login-message">
          {message}
          {hydrated && data?.tone === 'error' && typeof navigator !== 'undefined' && !navigator.onLine ? MSG.networkDown : ''}
        </Notice>
      ) : null}
      <Form ref={formRef} method="post" className="flex flex-col gap-4" noValidate onChange={(e) => readFilled(e.currentTarget)}>
        <input type="hidden" name="intent" value={reset ? 'reset' : 'login'} />
        <input type="hidden" name="redirectTo" value={params.get('redirectTo') ?? ''} />
        <Field label="Email" name="email" type="email" autoComplete="username" required error={data?.errors?.email} defaultValue={data?.email} />
        {reset ? null : (
          <div className="flex flex-col gap-2">
            <Field label="Password" name="password" type={show ? 'text' : 'password'} autoComplete="current-password" required error={data?.errors?.password} hint={PASSWORD_HINT} />
            {hydrated ? (
              <button type="button" className="self-start text-sm text-canopy-400 underline" aria-pressed={show} onClick={() => setShow((v) => !v)}>
                {show ? 'Hide password' : 'Show password'}
              </button>
            ) : null}
          </div>
        )}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={disabled} busy={nav.state === 'submitting'} busyText={reset ? 'Sending…' : 'Signing in…'}>
            {reset ? 'Reset' : 'Login'}
          </Button>
          {reset ? (
            <Link to="/Welcome" className="min-h-11 rounded-md border border-slate-600 px-4 py-2">
              Cancel
            </Link>
          ) : (
            <Link to="/Welcome?mode=reset" className="min-h-11 rounded-md px-4 py-2 text-canopy-400 underline">
              Reset Password
            </Link>
          )}
        </div>
      </Form>
    </section>
  )
}

export default function Welcome() {
  const data = useLoaderData<typeof loader>()
  const root = useRootData()
  const sent = useActionData<ActionData>()
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col gap-6 p-6">
      <header>
        <h1 className="text-3xl font-semibold text-canopy-400">
          {APP_NAME} <span className="text-slate-400">{data.version}</span>
        </h1>
        <p className="mt-2 text-lg text-slate-300">The console for licensed cultivation, distribution, testing and compliance teams.</p>
      </header>
      {data.menu && root?.user ? (
        <>
          <section aria-label="Signed in" className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-800 bg-slate-900 p-4">
            <p className="flex-1">
              Signed in as <strong>{`${root.user.firstname} ${root.user.lastname}`.trim()}</strong> ({root.user.role}) at <strong>{root.facilityName}</strong>
            </p>
          </section>
          <WaitingList items={data.waiting} />
          <MyDayView day={data.day} />
          {data.processing ? <Notice>{MSG.processing}</Notice> : null}
          {sent ? <Notice tone={sent.tone ?? 'success'}>{sent.message}</Notice> : data.unverified ? (
            <Form method="post" className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-700 p-3">
              <input type="hidden" name="intent" value="verify-email" />
              <p className="flex-1 text-slate-300">Your email address is not verified yet.</p>
              <Button tone="plain" type="submit">
                Send me a verification link
              </Button>
            </Form>
          ) : null}
          {root.user.role === 'super' && !root.actingFor ? (
            <form method="post" action="/Impersonate" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-800 p-3">
              <div className="flex-1">
                <Field label="Act as user (email)" name="email" type="email" />
              </div>
              <Button tone="plain" type="submit">
                Act as this user
              </Button>
            </form>
          ) : null}
          <nav aria-label="Screens" className="grid gap-4 sm:grid-cols-2">
            {data.menu.map((g) => (
              <section key={g.module} aria-label={g.module} className="rounded-lg border border-slate-800 p-3">
                <h2 className="mb-2 font-semibold text-slate-200">{g.module}</h2>
                <ul className="flex flex-col gap-1">
                  {g.routes.map((r) => (
                    <li key={r.path}>
                      <a href={r.path} className="text-canopy-400 hover:underline">
                        {r.title}
                      </a>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </nav>
        </>
      ) : (
        <>
          <LoginForm />
          <section aria-label="Status" className="rounded-lg border border-slate-800 bg-slate-900 p-4 text-slate-300">
            <p>
              {data.facilities} facilities on this server · data in {data.database === 'pglite' ? 'the embedded database' : 'PostgreSQL'}
            </p>
          </section>
        </>
      )}
    </main>
  )
}
