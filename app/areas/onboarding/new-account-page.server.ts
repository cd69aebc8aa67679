/** /SupNewAccount's loader and action: the guided new-account form, and the lobby sign-ups waiting for approval. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json, redirect } from '@remix-run/node'
import { findUser } from '../../auth/accounts.server'
import { LOBBY, processingOf } from '../../auth/flow.server'
import { CREDENTIAL_STATES } from '../../auth/messages'
import { requireScreen } from '../../auth/screens.server'
import { MODULES, PLATFORM_ORG } from '../../route-map'
import { actorOfSession, formObject } from './form-data'
import { createAccount, lobbySignups } from './new-account.server'
import { newAccountSchema } from './rules'
import { issueMessage } from '../../utils/zod-messages'

export const TIME_ZONES = ['America/Los_Angeles', 'America/Denver', 'America/Phoenix', 'America/Chicago', 'America/New_York', 'America/Detroit', 'America/Anchorage', 'Pacific/Honolulu']
/** A state's usual time zone (the form's default; it can be changed). */
export const ZONE_OF_STATE: Record<string, string> = { CA: 'America/Los_Angeles', NV: 'America/Los_Angeles', OR: 'America/Los_Angeles', AK: 'America/Anchorage', CO: 'America/Denver', MT: 'America/Denver', LA: 'America/Chicago', MO: 'America/Chicago', OK: 'America/Chicago', DC: 'America/New_York', ME: 'America/New_York', MA: 'America/New_York', MD: 'America/New_York', MI: 'America/Detroit', OH: 'America/New_York', WV: 'America/New_York' }

export async function newAccountLoader({ request, context }: LoaderFunctionArgs) {
  await requireScreen(request, context, '/SupNewAccount')
  const url = new URL(request.url)
  const workflows = (await context.database.store.find(PLATFORM_ORG, 'auth_workflows', {}, 1000)).map((w) => ({ id: w._id, name: String(w.name ?? w._id), module: String(w.module ?? '') }))
  let prefill: Record<string, string> = {}
  const from = url.searchParams.get('from')
  if (from) {
    const u = await findUser(context.database, from)
    if (u && u.org === LOBBY) {
      const p = await processingOf(context.database, u.email)
      prefill = { from: u.uid, email: u.email, firstname: u.firstname ?? '', lastname: u.lastname ?? '', state: p?.state ?? '', license: p?.lic ?? '', timezone: ZONE_OF_STATE[p?.state ?? ''] ?? '' }
    }
  }
  const created = url.searchParams.get('created')
  return json({
    states: CREDENTIAL_STATES as readonly string[],
    zones: TIME_ZONES,
    zoneOfState: ZONE_OF_STATE,
    modules: MODULES.map((m) => ({ code: m.code as string, name: m.name as string })),
    workflows,
    signups: await lobbySignups(context),
    prefill,
    created: created ? { org: created, mailed: url.searchParams.get('mailed') !== '0', moved: url.searchParams.get('moved') === '1', email: url.searchParams.get('email') ?? '' } : null,
  })
}

export async function newAccountAction({ request, context }: ActionFunctionArgs) {
  const { s } = await requireScreen(request, context, '/SupNewAccount')
  const values = formObject(await request.formData())
  const parsed = newAccountSchema.safeParse(values)
  if (!parsed.success) {
    const errors: Record<string, string> = {}
    for (const i of parsed.error.issues) errors[String(i.path[0] ?? 'form')] ??= issueMessage(i)
    return json({ errors, values }, { status: 400 })
  }
  const r = await createAccount(context, actorOfSession(s, context.requestId), parsed.data, new URL(request.url).origin)
  if (!r.ok) return json({ errors: r.errors, values }, { status: 400 })
  const q = new URLSearchParams({ created: r.org, email: parsed.data.email, mailed: r.mailed ? '1' : '0', moved: r.moved ? '1' : '0' })
  return redirect(`/SupNewAccount?${q}`)
}
