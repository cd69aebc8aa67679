/** The campaign screens (issue 27 item 4): create and start, progress, a template's preview. */
import { useEffect, useState } from 'react'
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator, useSubmit } from '@remix-run/react'
import { CAMPAIGN_EVENT } from '../../components/connection'
import { Button, Notice } from '../../components/ui'
import type { createAction, createLoader, listLoader, previewLoader } from './routes.server'

const input = 'min-h-11 w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100 focus:border-canopy-400 focus:outline-none'
const linkBtn = 'inline-flex min-h-11 items-center rounded-md border border-slate-600 px-4 hover:bg-slate-800'

/** A mail as its recipient sees it; the HTML body in a sandboxed frame (no scripts, no same-origin). */
function MailPreview({ to, subject, html, label }: { to: string; subject: string; html: string; label: string }) {
  return (
    <section aria-label={label} className="flex flex-col gap-2 rounded-md border border-slate-700 p-3">
      <p>
        <span className="text-slate-400">To:</span> {to}
      </p>
      <p>
        <span className="text-slate-400">Subject:</span> <strong data-testid="preview-subject">{subject}</strong>
      </p>
      <iframe title={`${label}: body`} sandbox="" srcDoc={html} className="h-64 w-full rounded bg-white" />
    </section>
  )
}

export function CampaignCreatePage() {
  const d = useLoaderData<typeof createLoader>()
  const a = useActionData<typeof createAction>()
  const nav = useNavigation()
  const submit = useSubmit()
  const v = a?.values ?? d.values
  // with JavaScript: changing the template or the list counts and previews again at once
  const again = (e: React.ChangeEvent<HTMLSelectElement>) => {
    const f = new FormData(e.currentTarget.form!)
    f.delete('key')
    submit(f, { method: 'get', replace: true, preventScrollReset: true })
  }
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-semibold">Create campaign</h1>
      <p className="text-slate-300">
        Pick a mail template and who receives it. <Link className="text-canopy-400 underline" to="/CrmTemplate">Templates</Link> ·{' '}
        <Link className="text-canopy-400 underline" to="/CrmCampaign">Campaigns</Link>
      </p>
      {a?.error ? (
        <Notice tone="error" id="campaign-error">
          {a.error}
        </Notice>
      ) : null}
      <Form method="post" className="flex flex-col gap-3" aria-label="Campaign">
        <input type="hidden" name="key" value={d.key} />
        <label className="flex flex-col gap-1">
          Campaign name
          <input className={input} name="name" defaultValue={v.name} />
        </label>
        <label className="flex flex-col gap-1">
          Template
          <select className={input} name="template" defaultValue={v.template} onChange={again}>
            <option value="">Choose a template…</option>
            {d.templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Recipients
          <select className={input} name="who" defaultValue={v.who} onChange={again}>
            {d.whos.map((w) => (
              <option key={w.value} value={w.value}>
                {w.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Prospect stage
          <select className={input} name="stage" defaultValue={v.stage} onChange={again}>
            <option value="">Every stage</option>
            {d.stages.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Company contains
          <input className={input} name="company" defaultValue={v.company} placeholder="All companies" />
        </label>
        <p role="status" data-testid="campaign-count" className="text-lg">
          {d.count.receive} {d.count.receive === 1 ? 'recipient' : 'recipients'} will receive it
          {d.count.unsubscribed ? ` (${d.count.unsubscribed} unsubscribed ${d.count.unsubscribed === 1 ? 'address' : 'addresses'} left out)` : ''}.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" tone="plain" formMethod="get">
            Count and preview
          </Button>
          <Button type="submit" name="intent" value="start" busy={nav.state === 'submitting' && nav.formMethod?.toLowerCase() === 'post'} busyText="Starting…">
            Start campaign
          </Button>
        </div>
      </Form>
      {d.templateProblem ? <Notice tone="error">{d.templateProblem}</Notice> : null}
      {d.preview ? <MailPreview label="Preview" to={d.preview.to} subject={d.preview.subject} html={d.preview.html} /> : null}
    </div>
  )
}

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

export function TemplatePreviewPage() {
  const d = useLoaderData<typeof previewLoader>()
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-semibold">Preview: {d.name}</h1>
      <p className="flex flex-wrap gap-2">
        <Link className={linkBtn} to={`/CrmTemplate/${encodeURIComponent(d.id)}/edit`}>
          Edit template
        </Link>
        <Link className={linkBtn} to={`/CrmCampaignCreate?template=${encodeURIComponent(d.id)}`}>
          Send as a campaign
        </Link>
      </p>
      {d.problem ? <Notice tone="error">{d.problem}</Notice> : null}
      <MailPreview label="Preview" to={d.preview.to} subject={d.preview.subject} html={d.preview.html} />
      <section aria-label="Merge fields">
        <h2 className="text-lg font-semibold">Merge fields</h2>
        <ul className="list-disc pl-6">
          {d.fields.map((f) => (
            <li key={f.key}>
              <code>{f.key}</code>: {f.what}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
