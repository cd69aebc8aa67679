/** The links between a document's pages: edit, versions, view, PDF (and who signed, for a policy). */
import { Link } from '@remix-run/react'

const tab = (on: boolean) => `flex min-h-11 items-center rounded-md px-3 ${on ? 'bg-slate-800 font-semibold text-canopy-300' : 'text-slate-300 underline hover:bg-slate-800'}`

export function DocNav({ base, id, current, noun }: { base: string; id: string | null; current: 'edit' | 'versions' | 'signatures'; noun: string }) {
  const policy = base === '/PolDocs'
  const view = policy ? `/DisplayHTML?policy=${id}` : base === '/HTMLEditor' ? `/DisplayHTML?page=${id}` : `/DisplayHTML?doc=${id}`
  return (
    <nav aria-label={`This ${noun}`} className="flex flex-wrap gap-1 text-sm">
      <Link to={base} className={tab(false)}>
        All
      </Link>
      {id ? (
        <>
          <Link to={`${base}/${id}`} className={tab(current === 'edit')} aria-current={current === 'edit' ? 'page' : undefined}>
            Edit
          </Link>
          <Link to={`${base}/${id}/versions`} className={tab(current === 'versions')} aria-current={current === 'versions' ? 'page' : undefined}>
            Versions
          </Link>
          {policy ? (
            <Link to={`${base}/${id}/signatures`} className={tab(current === 'signatures')} aria-current={current === 'signatures' ? 'page' : undefined}>
              Who signed
            </Link>
          ) : null}
          <Link to={view} className={tab(false)}>
            View and print
          </Link>
          <a href={view.replace('/DisplayHTML', '/DisplayHTML.pdf')} className={tab(false)}>
            PDF
          </a>
        </>
      ) : null}
    </nav>
  )
}
