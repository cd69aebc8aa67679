/**
 * The edit form as a dialog over the table (issue 6, SPEC §2.6 popup dialog): loaded lazily by
 * record-dialog-links.tsx when JavaScript opens a record's edit or add link. The form's data
 * comes from the page's own loader (`/{screen}/{id}/edit`, `/{screen}/new`) and the form posts
 * to the page's action through a fetcher: a save redirects back to the table (the dialog closes
 * as the location changes), a refused one answers with its errors and the dialog stays open.
 * Enter in a text field saves (the form's own submit); Esc and Cancel close without saving.
 * While the form (built from the table's schema) cannot be loaded because the server is out of reach,
 * the dialog says SPEC §8's 'Could not access server, please try again later'; the load keeps being
 * tried (app/client/server-retry.ts) and the form appears once the server answers (decision 060).
 */
import type { SubmissionResult } from '@conform-to/react'
import { useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { currentReach, REACH_EVENT, type ReachDetail } from '../../client/server-retry'
import { SCHEMA_UNREACHABLE } from '../connection'
import { Notice } from '../ui'
import { useT } from '../../i18n/t'
import type { EditData } from '../../screens/record-edit.server'
import { RecordForm } from './record-form'
import { recordTitle } from '../../forms/record-title'

const FIELD = 'form input:not([type=hidden]):not([disabled]), form select, form textarea'

export default function RecordDialog({ href, onClose }: { href: string; onClose: () => void }) {
  const t = useT()
  const ref = useRef<HTMLDialogElement>(null)
  const load = useFetcher<EditData>()
  const save = useFetcher<SubmissionResult<string[]> | undefined>()
  const data = load.data as EditData | undefined

  useEffect(() => {
    ref.current?.showModal()
    load.load(href)
    // once per dialog: a new link opens a new dialog
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  // focus goes to the form's first field once it is there
  const ready = !!data
  const [unreachable, setUnreachable] = useState(false)
  useEffect(() => {
    if (ready) return
    const on = (e: Event) => setUnreachable(!(e as CustomEvent<ReachDetail>).detail.reachable)
    window.addEventListener(REACH_EVENT, on)
    if (!currentReach().reachable) setUnreachable(true)
    return () => window.removeEventListener(REACH_EVENT, on)
  }, [ready])
  useEffect(() => {
    if (ready) ref.current?.querySelector<HTMLElement>(FIELD)?.focus()
  }, [ready])

  const title = data ? recordTitle(data.schema, !!data.id, t) : t('Loading…')
  return (
    <dialog
      ref={ref}
      // Esc (or a tablet's back gesture) closes the dialog natively; Cancel closes it the same way
      onClose={onClose}
      aria-labelledby="record-dialog-title"
      aria-busy={!data}
      className="max-h-[calc(100dvh-1rem)] w-[min(44rem,calc(100vw-1rem))] max-w-none lg:w-[min(60rem,calc(100vw-2rem))] overflow-y-auto overscroll-contain rounded-lg border border-slate-600 bg-slate-900 p-0 text-slate-100 shadow-2xl backdrop:bg-black/60"
    >
      <div className="flex flex-col gap-4 p-4">
        <h2 id="record-dialog-title" className="text-xl font-semibold text-canopy-400">
          {title}
        </h2>
        {data ? (
          <RecordForm data={data} dialog={{ fetcher: save, action: href, onCancel: () => ref.current?.close() }} />
        ) : unreachable ? (
          <Notice tone="error">{t(SCHEMA_UNREACHABLE)}</Notice>
        ) : (
          <p className="text-slate-400">{t('Loading…')}</p>
        )}
      </div>
    </dialog>
  )
}
