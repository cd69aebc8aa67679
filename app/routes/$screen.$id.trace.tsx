/**
 * /{screen}/{id}/trace (issue 23 item 3): where a record came from and where it went, each record
 * with its audit steps and METRC pushes. The history page's guard and read rights; rendered on the
 * server, links and <details> only, so it works without JavaScript on a kiosk tablet.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireSession } from '../auth/require.server'
import { formatDateTime } from '../format/format'
import { useT } from '../i18n/t'
import { editTarget } from '../screens/record-edit.server'
import { recordTrace, type TraceGroupData, type TraceNodeData } from '../screens/record-trace.server'
import { refusedAsPage } from '../utils/errors'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `Trace · ${APP_NAME}` }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const s = await requireSession(request, context)
  const url = new URL(request.url)
  try {
    const { route, facility } = await editTarget(context, s, `/${params.screen ?? ''}`)
    const trace = await recordTrace(context, s, route, facility, url, params.id ?? '')
    return json({ ...trace, back: `${route.path}${url.search}` })
  } catch (e) {
    refusedAsPage(e)
  }
}

const ACTION = { insert: 'Created', update: 'Changed', delete: 'Deleted' } as const
const PUSH_TONE: Record<string, string> = { confirmed: 'text-canopy-400', failed: 'text-red-300', discarded: 'text-slate-400' }
const link = 'inline-flex min-h-11 items-center text-canopy-400 underline'

type T = (k: string) => string

function Steps({ node, timeZone, t }: { node: TraceNodeData; timeZone: string; t: T }) {
  if (!node.steps.length) return <p className="text-slate-400">{t('No audit history')}</p>
  return (
    <>
      <ol className="flex flex-col gap-1" data-testid="trace-steps">
        {node.steps.map((e, i) => (
          <li key={i}>
            <strong>{t(ACTION[e.action])}</strong> · {formatDateTime(e.at, { timeZone })}
            {e.who ? ` · ${e.who}` : ''}
            {e.changes.length ? (
              <span className="block pl-4 text-slate-300">
                {e.changes
                  .slice(0, 6)
                  .map((c) => `${c.field}: ${c.before || '—'} → ${c.after || '—'}`)
                  .join(' · ')}
                {e.changes.length > 6 ? ' …' : ''}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      {node.history ? (
        <Link to={node.history} className={link}>
          {node.stepCount > node.steps.length ? `${t('Full history')} (${node.stepCount})` : t('Full history')}
        </Link>
      ) : null}
    </>
  )
}

function Pushes({ node, timeZone, t }: { node: TraceNodeData; timeZone: string; t: T }) {
  if (!node.pushes.length) return <p className="text-slate-400">{t('Nothing sent to METRC')}</p>
  return (
    <ul className="flex flex-col gap-1" data-testid="trace-pushes">
      {node.pushes.map((p, i) => (
        <li key={i} data-status={p.status}>
          <span className="font-mono">{p.endpoint}</span> · <strong className={PUSH_TONE[p.status] ?? 'text-amber-300'}>{t(p.status)}</strong> · {formatDateTime(p.at, { timeZone })}
          {p.status === 'failed' && p.message ? <span className="block pl-4 text-red-300">{p.message}</span> : null}
        </li>
      ))}
    </ul>
  )
}

function Node({ node, timeZone, t, open = false }: { node: TraceNodeData; timeZone: string; t: T; open?: boolean }) {
  const name = `${t(node.kind)} ${node.title}`
  return (
    <li className="rounded-md border border-slate-700 p-3" data-testid="trace-node" data-kind={node.kind}>
      <p className="text-lg">
        {node.link ? (
          <Link to={node.link} className={`${link} font-semibold`}>
            {name}
          </Link>
        ) : (
          <strong>{name}</strong>
        )}
      </p>
      {node.facts.length ? <p className="text-slate-300">{node.facts.join(' · ')}</p> : null}
      <details className="mt-1" open={open}>
        <summary className="flex min-h-11 cursor-pointer items-center text-slate-200">
          {t('History')} ({node.stepCount}) · {t('METRC')} ({node.pushes.length}
          {node.pushes.some((p) => p.status === 'failed') ? `, ${t('failed')}` : ''})
        </summary>
        <div className="flex flex-col gap-3 pl-2">
          <section>
            <h4 className="font-semibold">{t('History')}</h4>
            <Steps node={node} timeZone={timeZone} t={t} />
          </section>
          <section>
            <h4 className="font-semibold">{t('METRC')}</h4>
            <Pushes node={node} timeZone={timeZone} t={t} />
            {node.pushes.length ? (
              <Link to="/MetrcOutbox" className={link}>
                {t('METRC Outbox')}
              </Link>
            ) : null}
          </section>
        </div>
      </details>
    </li>
  )
}

function Groups({ groups, timeZone, t, testId }: { groups: TraceGroupData[]; timeZone: string; t: T; testId: string }) {
  if (!groups.length) return <p className="text-slate-400">{t('Nothing recorded')}</p>
  return (
    <div className="flex flex-col gap-4" data-testid={testId}>
      {groups.map((g, i) => (
        <section key={i} aria-label={t(g.label)}>
          <h3 className="text-lg font-semibold">
            {t(g.label)} ({g.total})
          </h3>
          {g.hidden ? (
            <p className="text-slate-400">{t('Your account is not entitled to the screen of these records.')}</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {g.nodes.map((n) => (
                <Node key={`${n.collection}/${n.id}`} node={n} timeZone={timeZone} t={t} />
              ))}
            </ul>
          )}
          {!g.hidden && g.total > g.nodes.length ? (
            <p>
              {`${t('Showing')} ${g.nodes.length} / ${g.total}. `}
              {g.more ? (
                <Link to={g.more} className={link}>
                  {t('See them all in the table')}
                </Link>
              ) : null}
            </p>
          ) : null}
        </section>
      ))}
    </div>
  )
}

export default function RecordTrace() {
  const d = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <section className="flex max-w-4xl flex-col gap-4 p-4 text-lg" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">
        {t('Trace')}: {t(d.self.kind)} {d.self.title}
      </h1>
      <p className="flex flex-wrap gap-4">
        <Link to={d.back} className={link}>
          {t('Back to the table')}
        </Link>
        {d.self.history ? (
          <Link to={d.self.history} className={link}>
            {t('Full history')}
          </Link>
        ) : null}
      </p>
      <ul data-testid="trace-self">
        <Node node={d.self} timeZone={d.timeZone} t={t} open />
      </ul>
      <h2 className="text-xl font-semibold">{t('Came from')}</h2>
      <Groups groups={d.from} timeZone={d.timeZone} t={t} testId="trace-from" />
      <h2 className="text-xl font-semibold">{t('Went to')}</h2>
      <Groups groups={d.to} timeZone={d.timeZone} t={t} testId="trace-to" />
    </section>
  )
}
