/**
 * GET /api/reference: the JSON API's reference, read from the same OpenAPI document as
 * /api/openapi.json (app/api/openapi/reference.ts): operations grouped by tag with their parameters,
 * bodies and answers; ?table={key} shows one table's record fields. Server-rendered markup only
 * (details/summary, links): no script is needed and none is loaded from elsewhere. A console page
 * like the others (signed-in users, through the root guard). English only: it documents an API whose
 * names and messages are English, so its text is not passed to t().
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { openApiDocument } from '../api/openapi/document.server'
import { referenceView, tableView, type AnswerView, type OperationView, type TableView } from '../api/openapi/reference'

export const meta: MetaFunction = () => [{ title: 'Canopy JSON API reference' }]

export function loader({ request }: LoaderFunctionArgs) {
  const { doc } = openApiDocument()
  const key = new URL(request.url).searchParams.get('table')
  const table = key ? tableView(doc, key) : null
  if (key && !table) throw new Response('There is no table by that name in the API reference.', { status: 404, statusText: 'No such table' })
  return json({ view: referenceView(doc), table })
}

const METHOD_TONE: Record<string, string> = {
  GET: 'bg-sky-900 text-sky-100',
  POST: 'bg-canopy-800 text-canopy-50',
  PUT: 'bg-amber-900 text-amber-50',
  PATCH: 'bg-amber-900 text-amber-50',
  DELETE: 'bg-red-900 text-red-50',
}
const LINK = 'font-medium text-canopy-400 underline underline-offset-4 hover:no-underline'
const SECURITY: Record<string, string> = { accessToken: 'x-access-token', session: 'session cookie', deviceBasic: 'device Basic auth' }
const anchor = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-')

export default function ApiReference() {
  const { view, table } = useLoaderData<typeof loader>()
  if (table) return <TableFields table={table} />
  return (
    <main className="mx-auto max-w-5xl space-y-8 p-4 sm:p-6">
      <header className="space-y-3">
        <h1 className="text-2xl font-semibold text-canopy-400">
          {view.title} <span className="text-base font-normal text-slate-400">{view.version}</span>
        </h1>
        <p className="text-slate-300">{view.description}</p>
        <p>
          Machine-readable: <a className={LINK} href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).
        </p>
        <nav aria-label="API sections">
          <ul className="flex flex-wrap gap-x-5 gap-y-1">
            {view.groups.map((g) => (
              <li key={g.tag}>
                <a className={`${LINK} inline-flex min-h-11 items-center`} href={`#${anchor(g.tag)}`}>
                  {g.tag} ({g.operations.length})
                </a>
              </li>
            ))}
            <li>
              <a className={`${LINK} inline-flex min-h-11 items-center`} href="#tables">
                Tables ({view.tables.length})
              </a>
            </li>
          </ul>
        </nav>
      </header>
      {view.groups.map((g) => (
        <section key={g.tag} aria-labelledby={anchor(g.tag)} className="space-y-3">
          <h2 id={anchor(g.tag)} className="text-xl font-semibold">
            {g.tag}
          </h2>
          {g.description ? <p className="text-slate-300">{g.description}</p> : null}
          {g.operations.map((op) => (
            <Operation key={`${op.method} ${op.path}`} op={op} />
          ))}
        </section>
      ))}
      <section aria-labelledby="tables" className="space-y-3">
        <h2 id="tables" className="text-xl font-semibold">
          Tables
        </h2>
        <p className="text-slate-300">
          Records of each table, as /dt/v1/{'{table}'} reads and writes them (components Record_{'{table}'} in the document).
        </p>
        <ul className="grid grid-cols-2 gap-x-4 sm:grid-cols-3 lg:grid-cols-4">
          {view.tables.map((t) => (
            <li key={t}>
              <Link className={`${LINK} inline-flex min-h-11 items-center font-mono text-sm`} to={`/api/reference?table=${t}`}>
                {t}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </main>
  )
}

function Operation({ op }: { op: OperationView }) {
  return (
    <details id={op.id} className="rounded-md border border-slate-700 bg-slate-900">
      <summary className="flex min-h-11 cursor-pointer flex-wrap items-center gap-3 px-3 py-2">
        <span className={`w-16 rounded px-2 py-0.5 text-center font-mono text-sm font-semibold ${METHOD_TONE[op.method] ?? 'bg-slate-700'}`}>{op.method}</span>
        <code className="font-mono text-slate-100">{op.path}</code>
        <span className="text-slate-300">{op.summary}</span>
        {op.planned ? <span className="rounded border border-amber-500 px-2 text-sm text-amber-200">planned</span> : null}
      </summary>
      <div className="space-y-4 border-t border-slate-700 px-3 py-3">
        {op.description ? <p className="whitespace-pre-line text-slate-300">{op.description.replace(/\*\*/g, '')}</p> : null}
        <p className="text-sm text-slate-400">
          Sign-in: {op.security.length ? op.security.map((s) => SECURITY[s] ?? s).join(' or ') : 'none'}
        </p>
        {op.params.length ? (
          <div>
            <h3 className="font-semibold">Parameters</h3>
            <table className="mt-1 w-full text-left text-sm">
              <thead className="text-slate-400">
                <tr>
                  <th className="py-1 pr-3">Name</th>
                  <th className="py-1 pr-3">In</th>
                  <th className="py-1 pr-3">Type</th>
                  <th className="py-1">What</th>
                </tr>
              </thead>
              <tbody>
                {op.params.map((p) => (
                  <tr key={`${p.in}-${p.name}`} className="border-t border-slate-800 align-top">
                    <td className="py-1 pr-3 font-mono">
                      {p.name}
                      {p.required ? <span title="required"> *</span> : null}
                    </td>
                    <td className="py-1 pr-3">{p.in}</td>
                    <td className="break-all py-1 pr-3">{p.type}</td>
                    <td className="py-1">{p.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {op.body ? (
          <div>
            <h3 className="font-semibold">Body{op.body.required ? '' : ' (optional)'}</h3>
            <p className="text-sm">
              <code>{op.body.contentType}</code>: {op.body.type}
            </p>
            {op.body.description ? <p className="text-sm text-slate-300">{op.body.description}</p> : null}
            <Schema text={op.body.schema} />
          </div>
        ) : null}
        <div>
          <h3 className="font-semibold">Answers</h3>
          <ul className="space-y-2">
            {op.answers.map((a) => (
              <Answer key={a.status} a={a} />
            ))}
          </ul>
        </div>
      </div>
    </details>
  )
}

function Answer({ a }: { a: AnswerView }) {
  const ok = a.status.startsWith('2')
  return (
    <li className="text-sm">
      <span className={`font-mono font-semibold ${ok ? 'text-canopy-400' : 'text-red-300'}`}>{a.status}</span> {a.description}
      {a.type ? (
        <span className="text-slate-400">
          {' '}
          (<code>{a.contentType}</code>: {a.type})
        </span>
      ) : null}
      {a.schema && ok ? <Schema text={a.schema} /> : null}
    </li>
  )
}

function Schema({ text }: { text: string }) {
  return (
    <details className="mt-1">
      <summary className="inline-flex min-h-11 cursor-pointer items-center text-sm text-slate-400">JSON Schema</summary>
      <pre className="max-h-96 overflow-auto rounded bg-slate-950 p-2 text-xs text-slate-200">{text}</pre>
    </details>
  )
}

function TableFields({ table }: { table: TableView }) {
  return (
    <main className="mx-auto max-w-5xl space-y-4 p-4 sm:p-6">
      <p>
        <Link className={`${LINK} inline-flex min-h-11 items-center`} to="/api/reference#tables">
          Back to the API reference
        </Link>
      </p>
      <h1 className="text-2xl font-semibold text-canopy-400">
        {table.title} <code className="text-base font-normal text-slate-400">{table.key}</code>
      </h1>
      <p className="text-slate-300">{table.description}</p>
      <p className="text-sm text-slate-400">* required on create; read-only fields are answered, never written.</p>
      <table className="w-full text-left text-sm">
        <thead className="text-slate-400">
          <tr>
            <th className="py-1 pr-3">Key</th>
            <th className="py-1 pr-3">Label</th>
            <th className="py-1 pr-3">Type</th>
            <th className="py-1">Notes</th>
          </tr>
        </thead>
        <tbody>
          {table.fields.map((f) => (
            <tr key={f.key} className="border-t border-slate-800 align-top">
              <td className="py-1 pr-3 font-mono">
                {f.key}
                {f.required ? <span title="required"> *</span> : null}
              </td>
              <td className="py-1 pr-3">{f.title}</td>
              <td className="break-all py-1 pr-3">{f.type}</td>
              <td className="py-1">
                {f.readOnly ? 'read-only. ' : ''}
                {f.description}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  )
}
