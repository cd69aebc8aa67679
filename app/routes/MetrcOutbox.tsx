/**
 * /MetrcOutbox: every push to METRC of this facility and what became of it (issue 9 item 5):
 * needs attention (failed with METRC's own words, held for approval), queued (pending, sent),
 * done (confirmed with METRC's Id, discarded with a reason). An approver approves a held item,
 * corrects a failed one's fields and resends it, or discards it with a reason
 * (app/metrc/outbox/actions.server.ts, audited). Plain forms: everything works without JavaScript.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireScreen } from '../auth/screens.server'
import { Button, Notice } from '../components/ui'
import { formatDateTime } from '../format/format'
import { useT } from '../i18n/t'
import { actOnItem, mayAct, moreFields, outboxView } from '../metrc/outbox/actions.server'
import { fieldText, OUTBOX_TABS, type OutboxTab } from '../metrc/outbox/tabs'
import { linkOf } from '../metrc/sync/links.server'
import { PLATFORM_ORG } from '../route-map'
import { timeZoneOf } from '../facilities/facts.server'
import { isAppError, statusOf } from '../utils/errors'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `METRC Outbox · ${APP_NAME}` }]

const PATH = '/MetrcOutbox'
const TABS: Array<{ tab: OutboxTab; label: string }> = [
  { tab: 'attention', label: 'Needs attention' },
  { tab: 'queued', label: 'Queued' },
  { tab: 'done', label: 'Done' },
]
const DONE_MSG: Record<string, string> = { approve: 'Approved: it goes to METRC with the next push.', resend: 'Queued again: it goes to METRC with the next push.', discard: 'Discarded: it will not be sent to METRC.' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { s, facility } = await requireScreen(request, context, PATH)
  const url = new URL(request.url)
  const asked = url.searchParams.get('tab')
  const tab: OutboxTab = asked && Object.hasOwn(OUTBOX_TABS, asked) ? (asked as OutboxTab) : 'attention'
  // ?status= narrows the tab to one of its statuses (the compliance dashboard's "failed" tile links here)
  const st = url.searchParams.get('status')
  const only = st && (OUTBOX_TABS[tab] as readonly string[]).includes(st) ? (st as (typeof OUTBOX_TABS)[OutboxTab][number]) : null
  const [view, link, timeZone] = await Promise.all([outboxView(context.database, facility, tab, 200, only), linkOf(context.database, facility), timeZoneOf(context, facility)])
  const user = { uid: s.user.uid, role: s.user.role, roles: s.user.props?.roles }
  // who queued each item, by name (the people of the platform's users table; programs keep their id)
  const uids = [...new Set(view.items.map((i) => i.created_by))]
  const people = new Map(
    (uids.length ? (await context.database.db.query<{ uid: string; name: string }>(`SELECT doc->>'uid' AS uid, trim(concat_ws(' ', doc->>'firstname', doc->>'lastname')) AS name FROM c_users WHERE org = $1 AND doc->>'uid' = ANY($2)`, [PLATFORM_ORG, uids])).rows : []).filter((r) => r.name).map((r) => [r.uid, r.name]),
  )
  return json({
    tab,
    only,
    timeZone,
    link: link ? { license: link.license, state: link.state, status: link.status } : null,
    counts: view.counts,
    unreachableSince: view.unreachableSince,
    done: DONE_MSG[url.searchParams.get('done') ?? ''] ?? null,
    items: view.items.map((i) => ({
      id: i.id,
      label: i.label,
      endpoint: i.endpoint,
      status: i.status,
      payload: i.payload,
      // the other fields METRC's body for this endpoint takes: a failed push may be given them too
      more: i.status === 'failed' ? moreFields(i.endpoint, i.payload) : [],
      message: i.message,
      attempts: i.attempts,
      metrcId: i.metrc_id === null ? null : String(i.metrc_id),
      created: i.created_at,
      createdBy: people.get(i.created_by) ?? i.created_by,
      updated: i.updated_at,
      approver: i.approver_role,
      mayAct: mayAct(user, i),
    })),
  })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { s, facility } = await requireScreen(request, context, PATH)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const id = String(form.get('id') ?? '')
  const fields: Record<string, string> = {}
  for (const [k, v] of form) if (k.startsWith('f.') && typeof v === 'string') fields[k.slice(2)] = v
  try {
    await actOnItem(context.database, facility, { uid: s.user.uid, role: s.user.role, roles: s.user.props?.roles }, { uid: s.user.uid, origUid: s.session.orig_uid, requestId: context.requestId }, { intent, id, fields, reason: String(form.get('reason') ?? '') })
  } catch (e) {
    if (!isAppError(e)) throw e
    return json({ id, error: e.message }, { status: statusOf(e) })
  }
  const tab = String(form.get('tab') ?? 'attention')
  return redirect(`${PATH}?tab=${Object.hasOwn(OUTBOX_TABS, tab) ? tab : 'attention'}&done=${intent}`)
}

const STATUS: Record<string, { text: string; cls: string }> = {
  held: { text: 'Waiting for approval', cls: 'border-amber-500 text-amber-200' },
  pending: { text: 'Pending', cls: 'border-sky-500 text-sky-200' },
  sent: { text: 'Sent, awaiting METRC', cls: 'border-sky-500 text-sky-200' },
  confirmed: { text: 'Confirmed by METRC', cls: 'border-canopy-500 text-canopy-200' },
  failed: { text: 'Failed', cls: 'border-red-500 text-red-300' },
  discarded: { text: 'Discarded', cls: 'border-slate-500 text-slate-300' },
}


export default function MetrcOutbox() {
  const d = useLoaderData<typeof loader>()
  const a = useActionData<typeof action>()
  const t = useT()
  const when = (iso: string | null) => (iso ? formatDateTime(iso, { timeZone: d.timeZone }) : '')
  return (
    <section className="flex max-w-4xl flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">
        {t('METRC Outbox')}
      </h1>
      {d.link ? (
        <p className="text-sm text-slate-300">
          {t('METRC license')} <strong>{d.link.license}</strong> ({d.link.state})
          {d.link.status === 'failing' ? <span className="text-red-300"> · {t('METRC refuses this facility’s API key: nothing is sent until an admin enters a new one.')}</span> : null}
        </p>
      ) : (
        <Notice>{t('This facility is not linked to METRC yet: nothing is queued for it.')}</Notice>
      )}
      {d.unreachableSince ? (
        <Notice tone="error">
          {t('METRC has not answered since')} {when(d.unreachableSince)}. {t('Queued work is kept and goes out in order once METRC answers again.')}
        </Notice>
      ) : null}
      {d.done ? <Notice tone="success">{t(d.done)}</Notice> : null}
      <nav aria-label={t('Outbox')} className="flex flex-wrap gap-2">
        {TABS.map(({ tab, label }) => {
          const n = OUTBOX_TABS[tab].reduce((s, st) => s + d.counts[st], 0)
          return (
            <Link key={tab} to={`${PATH}?tab=${tab}`} aria-current={d.tab === tab ? 'page' : undefined} className={`min-h-11 rounded-md border px-4 py-2 ${d.tab === tab ? 'border-canopy-400 text-canopy-300' : 'border-slate-600 text-slate-200'}`}>
              {t(label)} ({n})
            </Link>
          )
        })}
      </nav>
      {d.only ? (
        <p className="text-sm text-slate-300" data-testid="outbox-only">
          {t('Only')} “{t(STATUS[d.only].text)}” ({d.counts[d.only]}) ·{' '}
          <Link to={`${PATH}?tab=${d.tab}`} className="text-canopy-300 underline">
            {t('Show the whole tab')}
          </Link>
        </p>
      ) : null}
      {d.items.length === 0 ? <p className="text-slate-400">{t('Nothing here.')}</p> : null}
      <ol className="flex flex-col gap-3" data-testid="outbox-items">
        {d.items.map((i) => {
          const st = STATUS[i.status]
          const error = a && 'error' in a && a.id === i.id ? a.error : null
          return (
            <li key={i.id} className="flex flex-col gap-2 rounded-md border border-slate-700 p-3" data-testid="outbox-item" data-status={i.status}>
              <p className="flex flex-wrap items-center gap-2">
                <strong>{i.label}</strong>
                <span className={`rounded border px-2 text-xs ${st.cls}`}>{t(st.text)}</span>
              </p>
              <p className="text-xs text-slate-400">
                {i.endpoint} · {t('queued')} {when(i.created)} {t('by')} {i.createdBy}
                {i.attempts ? ` · ${t('tries')}: ${i.attempts}` : ''}
                {i.metrcId ? ` · ${t('METRC Id')} ${i.metrcId}` : ''}
              </p>
              {i.message ? (
                <p className={i.status === 'failed' ? 'text-red-300' : 'text-slate-300'} data-testid="outbox-message">
                  {i.status === 'failed' ? `${t('METRC says')}: ` : ''}
                  {i.message}
                </p>
              ) : null}
              {error ? <Notice tone="error">{error}</Notice> : null}
              {i.status === 'held' && !i.mayAct ? <p className="text-sm text-amber-200">{t('Waiting for an approver')}: {i.approver}</p> : null}
              {i.mayAct && i.status === 'held' ? (
                <Form method="post" className="flex gap-2">
                  <input type="hidden" name="id" value={i.id} />
                  <input type="hidden" name="tab" value={d.tab} />
                  <Button name="intent" value="approve">{t('Approve and send')}</Button>
                </Form>
              ) : null}
              {i.mayAct && i.status === 'failed' ? (
                <Form method="post" className="grid gap-2 sm:grid-cols-2" aria-label={`${t('Fix and resend')}: ${i.label}`}>
                  <input type="hidden" name="id" value={i.id} />
                  <input type="hidden" name="tab" value={d.tab} />
                  {Object.entries(i.payload).map(([k, v]) => (
                    <label key={k} className="flex flex-col gap-1 text-sm">
                      <span className="text-slate-300">{k}</span>
                      <input name={`f.${k}`} defaultValue={fieldText(v)} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100" />
                    </label>
                  ))}
                  {i.more.length ? (
                    <details className="sm:col-span-2">
                      <summary className="min-h-11 cursor-pointer py-2 text-sm text-slate-300">{t('More fields METRC takes')}</summary>
                      <div className="grid gap-2 sm:grid-cols-2">
                        {i.more.map((k) => (
                          <label key={k} className="flex flex-col gap-1 text-sm">
                            <span className="text-slate-300">{k}</span>
                            <input name={`f.${k}`} defaultValue="" className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100" />
                          </label>
                        ))}
                      </div>
                    </details>
                  ) : null}
                  <div className="sm:col-span-2">
                    <Button name="intent" value="resend">{t('Resend to METRC')}</Button>
                  </div>
                </Form>
              ) : null}
              {i.mayAct && (i.status === 'failed' || i.status === 'held') ? (
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="id" value={i.id} />
                  <input type="hidden" name="tab" value={d.tab} />
                  <label className="flex grow flex-col gap-1 text-sm">
                    <span className="text-slate-300">{t('Reason for not sending it')}</span>
                    <input name="reason" required minLength={3} maxLength={500} className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100" />
                  </label>
                  <Button tone="danger" name="intent" value="discard">{t('Discard')}</Button>
                </Form>
              ) : null}
            </li>
          )
        })}
      </ol>
    </section>
  )
}
