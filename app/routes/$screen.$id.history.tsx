/** /{screen}/{id}/history: a record's changes from the audit trail (issue 6). */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireSession } from '../auth/require.server'
import { formatDateTime } from '../format/format'
import { LongText } from '../components/ui'
import { useT } from '../i18n/t'
import { editTarget } from '../screens/record-edit.server'
import { recordHistory } from '../screens/record-history.server'
import { refusedAsPage } from '../utils/errors'
import { APP_NAME } from '../version'

export const meta: MetaFunction = () => [{ title: `History · ${APP_NAME}` }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const s = await requireSession(request, context)
  const url = new URL(request.url)
  try {
    const { route, facility } = await editTarget(context, s, `/${params.screen ?? ''}`)
    const { entries, timeZone } = await recordHistory(context, route, facility, url, params.id ?? '')
    return json({ entries, timeZone, back: `${route.path}${url.search}`, edit: `${route.path}/${encodeURIComponent(params.id ?? '')}/edit${url.search}` })
  } catch (e) {
    refusedAsPage(e)
  }
}

const ACTION = { insert: 'Created', update: 'Changed', delete: 'Deleted' } as const

export default function RecordHistory() {
  const d = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <section className="flex max-w-3xl flex-col gap-4 p-4" aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-semibold text-canopy-400">
        {t('History')}
      </h1>
      <p className="flex gap-4">
        <Link to={d.back} className="text-canopy-400 underline">
          {t('Back to the table')}
        </Link>
        <Link to={d.edit} className="text-canopy-400 underline">
          {t('Edit')}
        </Link>
      </p>
      <ol className="flex flex-col gap-3">
        {[...d.entries].reverse().map((e, i) => (
          <li key={i} className="rounded-md border border-slate-700 p-3">
            <p>
              <strong>{t(ACTION[e.action])}</strong> · {formatDateTime(e.at, { timeZone: d.timeZone })} · {e.who}
              {e.onBehalf ? ` (${t('signed in as')} ${e.onBehalf})` : ''}
            </p>
            {e.changes.length ? (
              <table className="mt-2 text-sm">
                <thead>
                  <tr className="text-left text-slate-400">
                    <th scope="col" className="pr-4">{t('Field')}</th>
                    <th scope="col" className="pr-4">{t('Before')}</th>
                    <th scope="col">{t('After')}</th>
                  </tr>
                </thead>
                <tbody>
                  {e.changes.map((c) => (
                    <tr key={c.field}>
                      <th scope="row" className="pr-4 text-left align-top font-normal text-slate-300">{c.field}</th>
                      <td className="pr-4 align-top text-slate-400">
                        <LongText text={c.before} showAll={t('Show all')} />
                      </td>
                      <td className="align-top">
                        <LongText text={c.after} showAll={t('Show all')} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : e.action === 'update' ? (
              <p className="mt-2 text-sm text-slate-400">{t('No field changed')}</p>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  )
}
