/**
 * The "What's new" notice (issue 27 item 5): the release notes published since the person last
 * looked, above every page of the shell until dismissed. Dismiss is a form that posts to
 * /ReleaseNotes and comes back here, so it works without JavaScript and on every device.
 */
import { Form, Link, useLocation } from '@remix-run/react'
import { WHATS_NEW_PATH } from './rules'

export interface WhatsNewData {
  version: string
  notes: Array<{ id: string; version: string; title: string; html: string }>
}

export function WhatsNewNotice({ n }: { n: WhatsNewData }) {
  const location = useLocation()
  return (
    <section aria-label="What’s new" className="border-b border-canopy-700 bg-canopy-950 px-4 py-3 text-canopy-50" data-whats-new={n.version}>
      <div className="mx-auto flex max-w-6xl flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="font-semibold">What’s new in {n.version}</p>
          <ul className="mt-1 flex flex-col gap-1">
            {n.notes.map((x) => (
              <li key={x.id}>
                <strong>{x.title}</strong> <span className="text-sm text-canopy-200">({x.version})</span>
                <div className="release-note text-sm text-canopy-100 [&_a]:underline" dangerouslySetInnerHTML={{ __html: x.html }} />
              </li>
            ))}
          </ul>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Link to={WHATS_NEW_PATH} className="flex min-h-11 items-center rounded-md border border-canopy-500 px-3 underline">
            All release notes
          </Link>
          <Form method="post" action={WHATS_NEW_PATH}>
            <input type="hidden" name="intent" value="dismiss" />
            <input type="hidden" name="version" value={n.version} />
            <input type="hidden" name="from" value={location.pathname + location.search} />
            <button type="submit" className="min-h-11 rounded-md bg-canopy-600 px-4 font-medium text-white hover:bg-canopy-500">
              Dismiss
            </button>
          </Form>
        </div>
      </div>
    </section>
  )
}
