/** /DisplayHTML: one document as a printable page (print style: only the document), or the list of documents. */
import { useEffect, useState } from 'react'
import { Link, useLoaderData } from '@remix-run/react'
import type { displayLoader } from './display.server'

export function DisplayPage() {
  const { doc, list } = useLoaderData<typeof displayLoader>()
  // Print needs JavaScript; without it the browser's own print uses the same print style
  const [live, setLive] = useState(false)
  useEffect(() => setLive(true), [])
  if (!doc)
    return (
      <section className="flex flex-col gap-4 p-4" aria-labelledby="display-title">
        <h1 id="display-title" className="text-2xl font-semibold text-canopy-400">
          Documents
        </h1>
        {list.length ? (
          <ul className="flex flex-col gap-1">
            {list.map((d) => (
              <li key={d.href}>
                <Link to={d.href} className="flex min-h-11 items-center rounded px-3 hover:bg-slate-800">
                  {d.title}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-300">No documents are published for display yet.</p>
        )}
      </section>
    )
  return (
    <section className="print-area flex flex-col gap-3 p-4" aria-labelledby="display-title">
      <div className="flex flex-wrap gap-3 text-sm print:hidden">
        {live ? (
          <button type="button" onClick={() => window.print()} className="min-h-11 rounded-md border border-slate-600 px-4">
            Print
          </button>
        ) : null}
        <a href={doc.pdf} className="flex min-h-11 items-center rounded-md border border-slate-600 px-4">
          Export PDF
        </a>
        {doc.edit ? (
          <Link to={doc.edit} className="flex min-h-11 items-center rounded-md border border-slate-600 px-4">
            Edit
          </Link>
        ) : null}
      </div>
      <h1 id="display-title" className="text-2xl font-semibold text-canopy-400">
        {doc.title}
      </h1>
      <p className="text-sm text-slate-400">{doc.subtitle}</p>
      <article className="doc-content rounded-md bg-white p-4 text-slate-900" dangerouslySetInnerHTML={{ __html: doc.html }} />
    </section>
  )
}
