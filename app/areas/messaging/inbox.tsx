/** /MsgMessages: conversations on the left, the open one (or the compose form) on the right. */
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'
import { UNREAD_EVENT } from '../../components/connection'
import { Button, Notice } from '../../components/ui'
import { formatDateTime } from '../../format/format'
import type { inboxAction, inboxLoader } from './inbox.server'
import { AttachmentIcon } from '../../components/icons'

type Data = ReturnType<typeof useLoaderData<typeof inboxLoader>>
const input = 'min-h-11 w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100 focus:border-canopy-400 focus:outline-none'

function Attach({ files }: { files: Data['files'] }) {
  if (!files.length) return null
  return (
    <details className="rounded-md border border-slate-700 p-2">
      <summary className="flex min-h-11 cursor-pointer items-center">Attach documents from the facility’s files</summary>
      <fieldset className="max-h-56 overflow-y-auto">
        <legend className="sr-only">Attach documents</legend>
        {files.map((f) => (
          <label key={f.id} className="flex min-h-11 items-center gap-2">
            <input type="checkbox" name="attach" value={f.id} className="h-5 w-5" /> {f.name}
          </label>
        ))}
      </fieldset>
    </details>
  )
}

/** Files from the device, stored with the message (the file store's types and size; without JavaScript the form posts them as multipart). */
function Upload({ d, id, err }: { d: Data; id: string; err: ReturnType<typeof useActionData<typeof inboxAction>> }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm text-slate-300">
        Upload files
      </label>
      <input id={id} type="file" name="upload" multiple accept={d.upload.accept} aria-describedby={`${id}-hint`} aria-invalid={err?.field === 'upload' || undefined} className="min-h-11 text-sm file:mr-3 file:min-h-11 file:rounded-md file:border-0 file:bg-slate-700 file:px-3 file:text-slate-100" />
      <p id={`${id}-hint`} className="text-sm text-slate-400">
        PNG, JPEG, WebP, PDF, CSV or TXT, up to {d.upload.maxMb} MB each.
      </p>
    </div>
  )
}

function Compose({ d, err }: { d: Data; err: ReturnType<typeof useActionData<typeof inboxAction>> }) {
  const busy = useNavigation().state === 'submitting'
  const v = err?.values ?? {}
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3" aria-label="New message">
      <h2 className="text-xl font-semibold">New message</h2>
      <input type="hidden" name="intent" value="send" />
      <label htmlFor="msg-to" className="text-sm text-slate-300">
        To
      </label>
      <select id="msg-to" name="to" defaultValue={v.to || d.to} required className={input} aria-invalid={err?.field === 'to' || undefined}>
        <option value="">Choose a person or a team…</option>
        <optgroup label="People">
          {d.people.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </optgroup>
        {d.teams.length ? (
          <optgroup label="Teams">
            {d.teams.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
      <label htmlFor="msg-subject" className="text-sm text-slate-300">
        Subject
      </label>
      <input id="msg-subject" name="subject" defaultValue={v.subject} maxLength={200} required className={input} aria-invalid={err?.field === 'subject' || undefined} />
      <label htmlFor="msg-body" className="text-sm text-slate-300">
        Message
      </label>
      <textarea id="msg-body" name="body" defaultValue={v.body} rows={6} maxLength={10000} required className={input} aria-invalid={err?.field === 'body' || undefined} />
      <Attach files={d.files} />
      <Upload d={d} id="msg-upload" err={err} />
      <div className="flex gap-2">
        <Button type="submit" disabled={busy}>
          Send
        </Button>
        <Link to="/MsgMessages" className="flex min-h-11 items-center rounded-md border border-slate-600 px-4">
          Cancel
        </Link>
      </div>
    </Form>
  )
}

function Conversation({ d, open, err }: { d: Data; open: NonNullable<Data['open']>; err: ReturnType<typeof useActionData<typeof inboxAction>> }) {
  const busy = useNavigation().state === 'submitting'
  return (
    <section aria-label="Conversation" className="flex flex-col gap-3">
      <h2 className="text-xl font-semibold">{open.subject}</h2>
      <p className="text-sm text-slate-400">With {open.members.join(', ')}</p>
      <ol className="flex flex-col gap-2" aria-label="Messages">
        {open.posts.map((p) => (
          <li key={p.id} className={`rounded-md border p-3 ${p.author === d.me ? 'border-canopy-700 bg-canopy-950' : 'border-slate-700 bg-slate-900'}`}>
            <p className="text-sm text-slate-400">
              <strong className="text-slate-200">{p.author === d.me ? 'You' : p.authorName}</strong> · {formatDateTime(p.at)}
            </p>
            <p className="whitespace-pre-wrap break-words">{p.body}</p>
            {p.attachments.length ? (
              <ul aria-label="Attachments" className="mt-1 flex flex-wrap gap-2">
                {p.attachments.map((a) => (
                  <li key={a.id}>
                    <a href={a.url} className="inline-flex min-h-11 items-center rounded border border-slate-600 px-3 underline" {...(a.id.startsWith('upload:') ? { download: a.name } : { target: '_blank', rel: 'noreferrer' })}>
                      <AttachmentIcon /> <span className="ml-1">{a.name}</span>
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-2" aria-label="Reply">
        <input type="hidden" name="intent" value="reply" />
        <input type="hidden" name="c" value={open.id} />
        <label htmlFor="msg-reply" className="text-sm text-slate-300">
          Your reply
        </label>
        <textarea id="msg-reply" name="body" rows={3} maxLength={10000} required className={input} />
        <Attach files={d.files} />
        <Upload d={d} id="msg-reply-upload" err={err} />
        <div>
          <Button type="submit" disabled={busy}>
            Send reply
          </Button>
        </div>
      </Form>
    </section>
  )
}

export function InboxPage() {
  const d = useLoaderData<typeof inboxLoader>()
  const err = useActionData<typeof inboxAction>()
  const revalidator = useRevalidator()
  // a new message for this user: the list (and the open conversation) read again
  useEffect(() => {
    const on = (e: Event) => {
      const detail = (e as CustomEvent<{ kind?: string }>).detail
      if (detail?.kind === 'messages' && revalidator.state === 'idle') revalidator.revalidate()
    }
    window.addEventListener(UNREAD_EVENT, on)
    return () => window.removeEventListener(UNREAD_EVENT, on)
  }, [revalidator])
  return (
    <main className="mx-auto grid max-w-6xl gap-4 p-4 md:grid-cols-[20rem_1fr]">
      <nav aria-label="Conversations" className="flex flex-col gap-2">
        <div className="flex items-center justify-between">
          <h1 className="text-2xl font-semibold text-canopy-400">Messages</h1>
          <Link to="/MsgMessages?new=1" className="flex min-h-11 items-center rounded-md bg-canopy-600 px-4 font-medium text-white">
            New message
          </Link>
        </div>
        {d.threads.length ? (
          <ul className="flex flex-col gap-1">
            {d.threads.map((t) => (
              <li key={t.id}>
                <Link
                  to={`/MsgMessages?c=${encodeURIComponent(t.id)}`}
                  aria-current={d.open?.id === t.id ? 'page' : undefined}
                  className={`flex min-h-11 flex-col rounded-md border px-3 py-2 ${d.open?.id === t.id ? 'border-canopy-500' : 'border-slate-700'} hover:bg-slate-800`}
                >
                  <span className="flex items-center gap-2">
                    <span className={t.unread ? 'font-semibold' : ''}>{t.subject}</span>
                    {t.unread ? (
                      <span className="ml-auto rounded-full bg-canopy-600 px-2 text-sm text-white" data-unread={t.unread}>
                        {t.unread} unread
                      </span>
                    ) : null}
                  </span>
                  <span className="text-sm text-slate-400">
                    {t.with} · {formatDateTime(t.lastAt)}
                  </span>
                  <span className="truncate text-sm text-slate-400">{t.preview}</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-400">No conversations yet.</p>
        )}
      </nav>
      <div>
        {err?.error ? <Notice tone="error">{err.error}</Notice> : null}
        {d.compose || err?.intent === 'send' ? <Compose d={d} err={err} /> : d.open ? <Conversation d={d} open={d.open} err={err} /> : <p className="text-slate-400">Choose a conversation, or start a new one.</p>}
      </div>
    </main>
  )
}
