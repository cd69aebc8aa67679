/** /SupportTicket: tickets on the left (the user's, or staff's queue), the open thread or the form on the right. */
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'
import { UNREAD_EVENT } from '../../components/connection'
import { Button, Notice } from '../../components/ui'
import { formatDateTime } from '../../format/format'
import type { supportAction, supportLoader } from './routes.server'
import { AttachmentIcon } from '../../components/icons'

type Data = ReturnType<typeof useLoaderData<typeof supportLoader>>
const input = 'min-h-11 w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100 focus:border-canopy-400 focus:outline-none'
const label = (d: Data, v: string) => d.statuses.find((s) => s.value === v)?.label ?? v

function FileInput() {
  return (
    <label className="flex flex-col gap-1 text-sm text-slate-300">
      Screenshot or file (optional: PNG, JPEG, WebP, PDF, CSV, TXT)
      <input type="file" name="file" accept=".png,.jpg,.jpeg,.webp,.pdf,.csv,.txt" className="min-h-11" />
    </label>
  )
}

function OpenForm({ d }: { d: Data }) {
  const err = useActionData<typeof supportAction>()
  const v = err?.intent === 'open' ? err.values : { subject: '', body: '', page: d.from }
  const busy = useNavigation().state === 'submitting'
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3" aria-label="Open a ticket">
      <h2 className="text-xl font-semibold">Open a support ticket</h2>
      <input type="hidden" name="intent" value="open" />
      <label htmlFor="t-subject" className="text-sm text-slate-300">
        Subject
      </label>
      <input id="t-subject" name="subject" required maxLength={200} defaultValue={v.subject} className={input} />
      <label htmlFor="t-body" className="text-sm text-slate-300">
        What happened?
      </label>
      <textarea id="t-body" name="body" required rows={6} maxLength={10000} defaultValue={v.body} className={input} />
      <label htmlFor="t-page" className="text-sm text-slate-300">
        The page you came from
      </label>
      <input id="t-page" name="page" defaultValue={v.page} className={input} />
      <FileInput />
      <div>
        <Button type="submit" disabled={busy}>
          Send to support
        </Button>
      </div>
    </Form>
  )
}

function Thread({ d, open }: { d: Data; open: NonNullable<Data['open']> }) {
  const busy = useNavigation().state === 'submitting'
  const ref = `${open.ticket.org}:${open.ticket.id}`
  return (
    <section aria-label="Ticket" className="flex flex-col gap-3">
      <h2 className="text-xl font-semibold">{open.ticket.subject}</h2>
      <p className="text-sm text-slate-400">
        Status: <strong data-status={open.ticket.status}>{label(d, open.ticket.status)}</strong> · opened by {open.requesterName} ({open.ticket.org}) {formatDateTime(open.ticket.createdAt)}
        {open.ticket.page ? (
          <>
            {' '}
            · from <a href={open.ticket.page} className="underline">{open.ticket.page}</a>
          </>
        ) : null}
      </p>
      <ol className="flex flex-col gap-2" aria-label="Thread">
        {open.posts.map((p) => (
          <li key={p.id} className={`rounded-md border p-3 ${p.staff ? 'border-canopy-700 bg-canopy-950' : 'border-slate-700 bg-slate-900'}`}>
            <p className="text-sm text-slate-400">
              <strong className="text-slate-200">{p.name}</strong> · {formatDateTime(p.at)}
            </p>
            <p className="whitespace-pre-wrap break-words">{p.body}</p>
            {p.file ? (
              <a href={p.file} className="mt-1 inline-flex min-h-11 items-center underline" target="_blank" rel="noreferrer">
                <AttachmentIcon /> <span className="ml-1">Attached file</span>
              </a>
            ) : null}
          </li>
        ))}
      </ol>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-2" aria-label="Answer">
        <input type="hidden" name="intent" value="reply" />
        <input type="hidden" name="t" value={ref} />
        <label htmlFor="t-reply" className="text-sm text-slate-300">
          Your reply
        </label>
        <textarea id="t-reply" name="body" required rows={4} maxLength={10000} className={input} />
        <FileInput />
        {d.staff ? (
          <label className="flex flex-col gap-1 text-sm text-slate-300">
            Status after this reply
            <select name="status" defaultValue="waiting" className={input}>
              {d.statuses.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div>
          <Button type="submit" disabled={busy}>
            Send reply
          </Button>
        </div>
      </Form>
      {d.staff ? (
        <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-2" aria-label="Status">
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="t" value={ref} />
          <label className="flex flex-col gap-1 text-sm text-slate-300">
            Set the status
            <select name="status" defaultValue={open.ticket.status} className={input}>
              {d.statuses.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" tone="plain">
            Save status
          </Button>
        </Form>
      ) : null}
    </section>
  )
}

export function SupportPage() {
  const d = useLoaderData<typeof supportLoader>()
  const err = useActionData<typeof supportAction>()
  const revalidator = useRevalidator()
  useEffect(() => {
    const on = (e: Event) => {
      if ((e as CustomEvent<{ kind?: string }>).detail?.kind === 'support' && revalidator.state === 'idle') revalidator.revalidate()
    }
    window.addEventListener(UNREAD_EVENT, on)
    return () => window.removeEventListener(UNREAD_EVENT, on)
  }, [revalidator])
  return (
    <main className="mx-auto grid max-w-6xl gap-4 p-4 md:grid-cols-[22rem_1fr]">
      <nav aria-label="Tickets" className="flex flex-col gap-2">
        <div className="flex items-center justify-between gap-2">
          <h1 className="text-2xl font-semibold text-canopy-400">Support</h1>
          {!d.staff ? (
            <Link to="/SupportTicket?new=1" className="flex min-h-11 items-center rounded-md bg-canopy-600 px-4 font-medium text-white">
              New ticket
            </Link>
          ) : null}
        </div>
        {d.staff ? (
          <p className="flex flex-wrap gap-1 text-sm">
            <Link to="/SupportTicket" className={`rounded px-2 py-2 ${!d.status ? 'bg-slate-700' : ''}`}>
              Not solved
            </Link>
            {d.statuses.map((s) => (
              <Link key={s.value} to={`/SupportTicket?status=${s.value}`} className={`rounded px-2 py-2 ${d.status === s.value ? 'bg-slate-700' : ''}`}>
                {s.label}
              </Link>
            ))}
          </p>
        ) : null}
        {d.tickets.length ? (
          <ul className="flex flex-col gap-1">
            {d.tickets.map((t) => (
              <li key={`${t.org}:${t.id}`}>
                <Link to={`/SupportTicket?t=${t.org}:${t.id}`} className="flex min-h-11 flex-col rounded-md border border-slate-700 px-3 py-2 hover:bg-slate-800">
                  <span className="flex items-center gap-2">
                    <span className={t.unread ? 'font-semibold' : ''}>{t.subject}</span>
                    <span className="ml-auto rounded bg-slate-700 px-2 text-xs">{label(d, t.status)}</span>
                  </span>
                  <span className="text-sm text-slate-400">
                    {d.staff ? `${t.org} · ` : ''}
                    {formatDateTime(t.updatedAt)}
                    {t.unread ? ` · ${t.unread} new repl${t.unread === 1 ? 'y' : 'ies'}` : ''}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-400">{d.staff ? 'No tickets here.' : 'You have not opened a ticket yet.'}</p>
        )}
      </nav>
      <div>
        {err?.error ? <Notice tone="error">{err.error}</Notice> : null}
        {d.open ? <Thread d={d} open={d.open} /> : !d.staff && (d.compose || err?.intent === 'open') ? <OpenForm d={d} /> : <p className="text-slate-400">{d.staff ? 'Choose a ticket from the queue.' : 'Choose a ticket, or open a new one.'}</p>}
      </div>
    </main>
  )
}
