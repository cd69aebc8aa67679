/** /CrmCampaign: every campaign and its progress; `?c={id}` one campaign's recipients (issue 27 item 4). */
import { useEffect, useState } from 'react'
import { Link, useLoaderData, useRevalidator } from '@remix-run/react'
import { CAMPAIGN_EVENT } from '../../components/connection'
import { Notice } from '../../components/ui'
import type { listLoader } from './routes.server'
import { linkBtn } from './ui'

type Counts = { total: number; sent: number; failed: number; skipped: number; queued: number }

function ProgressLine({ c }: { c: Counts }) {
  return (
    <span data-testid="campaign-progress">
      {c.sent} / {c.total} sent{c.skipped ? `, ${c.skipped} skipped` : ''}
      {c.failed ? `, ${c.failed} failed` : ''}
      {c.queued ? `, ${c.queued} queued` : ''}
    </span>
  )
}

export function CampaignListPage() {
  const d = useLoaderData<typeof listLoader>()
  const revalidator = useRevalidator()
  const [live, setLive] = useState<Record<string, Counts>>({})
  useEffect(() => setLive({}), [d])
  // with JavaScript: the sender's `campaign` events move the counts as mails go out; the list follows
  useEffect(() => {
    const on = (e: Event) => {
      const c = (e as CustomEvent<Counts & { id: string; done: boolean }>).detail
      setLive((l) => ({ ...l, [c.id]: c }))
      if (revalidator.state === 'idle' && (c.done || d.one)) revalidator.revalidate()
    }
    window.addEventListener(CAMPAIGN_EVENT, on)
    return () => window.removeEventListener(CAMPAIGN_EVENT, on)
  }, [revalidator, d.one])
  const counts = (c: (typeof d.campaigns)[number]) => live[c.id] ?? c
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-semibold">{d.one ? d.one.name : 'Campaigns'}</h1>
      {d.notice ? <Notice tone="success">{d.notice}</Notice> : null}
      <p className="flex flex-wrap gap-2">
        <Link className={linkBtn} to="/CrmCampaignCreate">
          Create campaign
        </Link>
        {d.one ? (
          <Link className={linkBtn} to={`/CrmCampaign?c=${encodeURIComponent(d.one.id)}`}>
            Reload
          </Link>
        ) : null}
        {d.one ? (
          <Link className={linkBtn} to="/CrmCampaign">
            All campaigns
          </Link>
        ) : null}
        <Link className={linkBtn} to="/CrmUnsub">
          Unsubscribed
        </Link>
      </p>
      {d.one ? (
        <section aria-label="Progress" className="flex flex-col gap-2">
          <p>
            Subject: <strong>{d.one.subject}</strong> · {d.one.audience} · {d.one.finished ? 'Completed' : 'Sending'}
          </p>
          <progress className="w-full" max={counts(d.one).total || 1} value={counts(d.one).sent + counts(d.one).failed + counts(d.one).skipped} />
          <p className="text-lg" aria-live="polite">
            <ProgressLine c={counts(d.one)} />
          </p>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Recipients</caption>
            <thead>
              <tr className="border-b border-slate-700">
                <th className="px-2 py-1">#</th>
                <th className="px-2 py-1">Email</th>
                <th className="px-2 py-1">Company</th>
                <th className="px-2 py-1">Status</th>
                <th className="px-2 py-1">Note</th>
              </tr>
            </thead>
            <tbody>
              {d.recipients.map((r) => (
                <tr key={r.seq} className="border-b border-slate-800" data-testid="recipient">
                  <td className="px-2 py-1">{r.seq}</td>
                  <td className="px-2 py-1">{r.email}</td>
                  <td className="px-2 py-1">{r.company}</td>
                  <td className="px-2 py-1">{r.status}</td>
                  <td className="px-2 py-1">{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : d.campaigns.length ? (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Campaigns</caption>
          <thead>
            <tr className="border-b border-slate-700">
              <th className="px-2 py-1">Campaign</th>
              <th className="px-2 py-1">Audience</th>
              <th className="px-2 py-1">Channel</th>
              <th className="px-2 py-1">Started</th>
              <th className="px-2 py-1">Status</th>
              <th className="px-2 py-1">Progress</th>
            </tr>
          </thead>
          <tbody>
            {d.campaigns.map((c) => (
              <tr key={c.id} className="border-b border-slate-800">
                <td className="px-2 py-1">
                  <Link className="text-canopy-400 underline" to={c.sending ? `/CrmCampaign?c=${encodeURIComponent(c.id)}` : `/CrmCampaign/${encodeURIComponent(c.id)}/edit`}>
                    {c.name}
                  </Link>
                </td>
                <td className="px-2 py-1">{c.audience}</td>
                <td className="px-2 py-1">{c.channel}</td>
                <td className="px-2 py-1">{c.started.slice(0, 16).replace('T', ' ')}</td>
                <td className="px-2 py-1">{c.status}</td>
                <td className="px-2 py-1">{c.sending ? <ProgressLine c={counts(c)} /> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No campaign yet.</p>
      )}
    </div>
  )
}

