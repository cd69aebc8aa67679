/**
 * /LinkSignIn: a sign-in link that another site opened asks before it replaces the session (issue
 * 20 item 7). It says whom the link signs in as and who is signed in now; Continue (a form posted
 * from this page, so the browser marks it same-origin) signs in exactly as the address would have;
 * the other choice keeps the session and opens the link's page without its credentials. The link
 * waits sealed in a cookie only this page receives (app/auth/link-question.server.ts): its
 * password is in no page and no address. Works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { fromOtherSite, signInByAddress } from '../auth/address-sign-in.server'
import { describeLink, endQuestion, openQuestion } from '../auth/link-question.server'
import { readSessionId } from '../auth/session.server'
import { Button, Notice, Page } from '../components/ui'
import { useRootData } from '../root'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Sign in from a link · ${APP_NAME}` }]

const EXPIRED = 'This sign-in question has expired or was replaced by another sign-in link. Open the link you were given again, or go to the start page.'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = openQuestion(request, context.env.SESSION_SECRET)
  if (!q) return json({ state: 'expired' as const, as: null, stay: '/Welcome', check: '' }, { status: 400 })
  const d = await describeLink(context, q.link)
  return json({ state: d.as === null ? ('bad-token' as const) : ('ask' as const), as: d.as, stay: d.stay, check: q.digest })
}

export async function action({ request, context }: ActionFunctionArgs) {
  // the cross-site check in http.server.ts already refuses such a post; this page must never be the way round it
  if (fromOtherSite(request)) throw new Response('Cross-site requests are refused. Open Canopy and try again from there.', { status: 403 })
  const form = await request.formData()
  const q = openQuestion(request, context.env.SESSION_SECRET)
  // the question this page showed, not one another link put in its place since
  if (!q || form.get('check') !== q.digest) return json({ error: EXPIRED }, { status: 400 })
  const r = await signInByAddress(context, request, { path: q.link.path, query: q.link.query, sessionId: readSessionId(request) })
  const headers = new Headers(r.headers)
  headers.append('Set-Cookie', endQuestion(request))
  return new Response(null, { status: r.status, headers })
}

export default function LinkSignIn() {
  const data = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()
  const now = useRootData()?.user ?? null
  if (data.state === 'expired' || failed?.error) {
    return (
      <Page title="This sign-in link cannot be used">
        <Notice tone="error">{EXPIRED}</Notice>
        <Link to="/Welcome" className="text-canopy-400 underline">
          Go to the start page
        </Link>
      </Page>
    )
  }
  const stayLabel = now ? `Stay signed in as ${now.email}` : 'Do not sign in'
  return (
    <Page title="Sign in from a link?">
      {data.state === 'bad-token' ? (
        <Notice tone="error">You opened a sign-in link from another site, but its sign-in token is not valid or has expired, so it cannot sign you in.</Notice>
      ) : (
        <p className="text-slate-300">
          {`You opened a link from another site that signs you in to ${APP_NAME} as `}
          <strong>{data.as}</strong>.
        </p>
      )}
      <p className="text-slate-300" aria-label="Signed in now">
        {now ? (
          <>
            You are signed in now as <strong>{now.email}</strong>.{data.state === 'ask' ? ' If you continue, you leave that account on this device.' : ''}
          </>
        ) : (
          'You are not signed in now.'
        )}
      </p>
      {data.state === 'ask' ? (
        <>
          <p className="text-slate-300">Continue only if you expected this link and want to work as {data.as}.</p>
          <form method="post" className="flex flex-col gap-3">
            <input type="hidden" name="check" value={data.check} />
            <Button type="submit">Continue as {data.as}</Button>
          </form>
        </>
      ) : null}
      <Link to={data.stay} className="min-h-11 rounded-md border border-slate-600 px-4 py-2 text-center font-medium text-slate-100 hover:bg-slate-800">
        {stayLabel}
      </Link>
    </Page>
  )
}
