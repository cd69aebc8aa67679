/**
 * SPEC §2.7 dialogs: a confirmation (default width 290 px, no timeout unless given) and a
 * message popup that closes itself after 10 s. Built on <dialog>; pages that must work
 * without JavaScript use a confirm page instead (delete, for instance).
 */
import { useEffect, useRef } from 'react'

export function ConfirmDialog(p: {
  open: boolean
  title: string
  message: string
  confirmLabel?: string
  cancelLabel?: string
  width?: number
  /** ms; 0 = stays until answered */
  timeout?: number
  onConfirm: () => void
  onCancel: () => void
}) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const d = ref.current
    if (!d) return
    if (p.open && !d.open) d.showModal()
    if (!p.open && d.open) d.close()
  }, [p.open])
  useEffect(() => {
    if (!p.open || !p.timeout) return
    const t = setTimeout(p.onCancel, p.timeout)
    return () => clearTimeout(t)
  }, [p.open, p.timeout, p.onCancel])
  return (
    <dialog ref={ref} onCancel={(e) => (e.preventDefault(), p.onCancel())} style={{ width: p.width ?? 290 }} className="rounded-lg border border-slate-600 bg-slate-900 p-4 text-slate-100 backdrop:bg-black/60" aria-labelledby="confirm-title">
      <h2 id="confirm-title" className="text-lg font-semibold">
        {p.title}
      </h2>
      <p className="mt-2 text-slate-300">{p.message}</p>
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="min-h-11 rounded-md border border-slate-600 px-4" onClick={p.onCancel}>
          {p.cancelLabel ?? 'Cancel'}
        </button>
        <button type="button" className="min-h-11 rounded-md bg-canopy-600 px-4 text-white" onClick={p.onConfirm} autoFocus /* eslint-disable-line jsx-a11y/no-autofocus -- a modal confirmation moves focus into itself (WAI-ARIA dialog pattern): to its default action */>
          {p.confirmLabel ?? 'OK'}
        </button>
      </div>
    </dialog>
  )
}

/** A message that shows for `timeout` ms (SPEC §9: 10 s) and stays while hovered. */
export function MessagePopup({ message, onClose, timeout = 10_000 }: { message: string | null; onClose: () => void; timeout?: number }) {
  const hovered = useRef(false)
  useEffect(() => {
    if (!message) return
    const t = setInterval(() => {
      if (!hovered.current) onClose()
    }, timeout)
    return () => clearInterval(t)
  }, [message, onClose, timeout])
  if (!message) return null
  return (
    <div role="status" onMouseEnter={() => (hovered.current = true)} onMouseLeave={() => (hovered.current = false)} className="fixed right-4 top-16 z-40 max-w-sm rounded-md border border-slate-600 bg-slate-900 px-4 py-3 shadow-lg">
      {message}
    </div>
  )
}
