/**
 * The document editor page (issue 26 item 1). Without JavaScript: the record's fields, the text as
 * Markdown in a textarea, Preview (the server shows it cleaned) and Save. With JavaScript the
 * rich-text editor (rich-editor.tsx, TipTap) is loaded — on this page only, as its own chunk — and
 * takes the textarea's place, unless something was already typed there.
 */
import { lazy, Suspense, useEffect, useState } from 'react'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Button, Notice } from '../../components/ui'
import type { editorLoader, EditorReply, MetaField } from './editor.server'
import { DocNav } from './doc-nav'

const RichEditor = lazy(() => import('./rich-editor'))

const input = 'min-h-11 w-full rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100 focus:border-canopy-400 focus:outline-none'

function MetaInput({ f, value, error }: { f: MetaField; value: string | string[] | undefined; error?: string }) {
  const id = `m-${f.key}`
  const err = error ? <p id={`${id}-error`} className="text-sm text-red-300">{error}</p> : null
  const described = error ? `${id}-error` : undefined
  if (f.kind === 'check')
    return (
      <div className="flex flex-col gap-1">
        <label className="flex min-h-11 items-center gap-3">
          <input type="checkbox" name={f.key} value="yes" defaultChecked={value === 'yes'} className="h-6 w-6" aria-describedby={described} />
          <span>{f.label}</span>
        </label>
        {err}
      </div>
    )
  if (f.kind === 'multi') {
    const chosen = Array.isArray(value) ? value : []
    return (
      <fieldset className="flex flex-col gap-1" aria-describedby={described}>
        <legend className="text-sm text-slate-300">{f.label}</legend>
        <div className="flex flex-wrap gap-2">
          {f.options.map((o) => (
            <label key={o.value} className="flex min-h-11 items-center gap-2 rounded-md border border-slate-700 px-3">
              <input type="checkbox" name={f.key} value={o.value} defaultChecked={chosen.includes(o.value)} className="h-5 w-5" />
              <span>{o.label}</span>
            </label>
          ))}
        </div>
        {err}
      </fieldset>
    )
  }
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm text-slate-300">
        {f.label}
        {f.required ? ' *' : ''}
      </label>
      {f.kind === 'list' ? (
        <select id={id} name={f.key} defaultValue={String(value ?? '')} className={input} aria-describedby={described} aria-invalid={error ? true : undefined}>
          <option value="">—</option>
          {f.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} name={f.key} defaultValue={String(value ?? '')} required={f.required} className={input} aria-describedby={described} aria-invalid={error ? true : undefined} />
      )}
      {err}
    </div>
  )
}

export function DocEditorPage() {
  const data = useLoaderData<ReturnType<typeof editorLoader>>()
  const reply = useActionData<EditorReply>()
  const nav = useNavigation()
  const values = reply?.values ?? data.values
  const [markdown, setMarkdown] = useState(reply?.markdown ?? data.markdown)
  const [rich, setRich] = useState(false)
  const [html, setHtml] = useState(reply?.html ?? data.html)
  const typed = markdown !== (reply?.markdown ?? data.markdown)
  // JavaScript is here: the rich editor takes over, unless the Markdown was already changed
  useEffect(() => {
    if (!typed) setRich(true)
    // only once, after hydration
    // eslint-disable-next-line react-hooks/exhaustive-deps -- decided once when the page comes alive
  }, [])
  const title = data.id ? String(values.title || values.name || `Untitled ${data.noun}`) : `New ${data.noun}`
  const busy = nav.state !== 'idle'
  return (
    <section className="flex flex-col gap-4 p-4" aria-labelledby="doc-title">
      <DocNav base={data.base} id={data.id} current="edit" noun={data.noun} />
      <h1 id="doc-title" className="text-2xl font-semibold text-canopy-400">
        {title}
      </h1>
      {data.notice === 'saved' ? <Notice tone="success">Saved as version {data.version}.</Notice> : null}
      {data.notice === 'published' ? <Notice tone="success">Published version {data.publishedVersion}: everyone it is addressed to is asked to read and acknowledge it.</Notice> : null}
      {reply?.formError ? <Notice tone="error">{reply.formError}</Notice> : null}
      <Form method="post" className="flex flex-col gap-4" aria-label={`Edit ${data.noun}`}>
        <input type="hidden" name="ts" value={data.ts} />
        <div className="grid gap-3 md:grid-cols-2">
          {data.fields.map((f) => (
            <MetaInput key={f.key} f={f} value={values[f.key]} error={reply?.errors?.[f.key]} />
          ))}
        </div>
        {rich ? (
          <>
            <input type="hidden" name="format" value="html" />
            <input type="hidden" name="html" value={html} />
            <Suspense fallback={<p className="text-slate-400">Loading the editor…</p>}>
              <RichEditor html={html} onChange={setHtml} images={data.images} />
            </Suspense>
            <p className="text-xs text-slate-400">Pasted text from Word or Google Docs keeps its headings, lists, tables and links; its styling is dropped.</p>
          </>
        ) : (
          <div className="flex flex-col gap-1">
            <input type="hidden" name="format" value="markdown" />
            <label htmlFor="markdown" className="text-sm text-slate-300">
              Text (Markdown: <code># Heading</code>, <code>- item</code>, <code>1. item</code>, <code>| a | b |</code> tables, <code>[link](https://…)</code>)
            </label>
            <textarea id="markdown" name="markdown" rows={18} value={markdown} onChange={(e) => setMarkdown(e.target.value)} className={`${input} font-mono text-sm`} />
            <div>
              <Button type="submit" name="intent" value="preview" tone="plain" disabled={busy}>
                Preview
              </Button>
            </div>
          </div>
        )}
        {reply?.preview !== undefined && !rich ? (
          <div className="rounded-md border border-slate-600 p-3">
            <h2 className="mb-2 text-sm font-semibold text-slate-300">Preview (as it will be stored)</h2>
            <div className="doc-content" dangerouslySetInnerHTML={{ __html: reply.preview }} />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="save" disabled={busy}>
            Save
          </Button>
          {data.kind === 'policy' ? (
            <Button type="submit" name="intent" value="publish" tone="plain" disabled={busy}>
              Save and publish
            </Button>
          ) : null}
          <Link to={data.base} className="flex min-h-11 items-center rounded-md px-4 text-slate-300 underline">
            Back to the list
          </Link>
        </div>
      </Form>
    </section>
  )
}
