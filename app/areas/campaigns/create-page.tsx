/** /CrmCampaignCreate: pick a template and a list, count and preview, start (issue 27 item 4). */
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import type { createAction, createLoader } from './routes.server'
import { input, MailPreview } from './ui'

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

