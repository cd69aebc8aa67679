/**
 * With JavaScript, a plain left click on a table's edit pencil or Add Item (links carrying
 * `RECORD_DIALOG_LINK`) opens the form in a dialog over the table instead of going to its page.
 * The links stay real addresses: without JavaScript, and with a middle, ctrl, shift or cmd click,
 * they open the page as before. The dialog's code loads on first use (it is prefetched when the
 * pointer or focus reaches such a link). Any new location closes it: the save's redirect back to
 * the table, the browser's Back, any other link.
 */
import { useLocation } from '@remix-run/react'
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FocusEvent, type MouseEvent, type PointerEvent } from 'react'

const RecordDialog = lazy(() => import('./record-dialog'))

/** Spread on a link to open its address in the dialog. */
export const RECORD_DIALOG_LINK = { 'data-record-dialog': '' }

const linkOf = (target: EventTarget) => (target instanceof Element ? target.closest<HTMLAnchorElement>('a[data-record-dialog]') : null)

let opened = 0

/** Handlers for the element around the links, and the dialog to render inside it. */
export function useRecordDialog() {
  const [open, setOpen] = useState<{ href: string; n: number } | null>(null)
  const opener = useRef<HTMLAnchorElement | null>(null)
  const { key } = useLocation()
  useEffect(() => setOpen(null), [key])
  const close = useCallback(() => {
    setOpen(null)
    // focus back to the link; a revalidated table may have rendered it anew
    const a = opener.current
    if (a?.isConnected) a.focus()
    else if (a) document.querySelector<HTMLElement>(`a[data-record-dialog][href="${CSS.escape(a.getAttribute('href') ?? '')}"]`)?.focus()
  }, [])
  const prefetch = (e: PointerEvent | FocusEvent) => {
    if (linkOf(e.target)) void import('./record-dialog')
  }
  const onClickCapture = (e: MouseEvent) => {
    const a = linkOf(e.target)
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    // before the Link's own handler, which then does not navigate
    e.preventDefault()
    opener.current = a
    setOpen({ href: a.getAttribute('href') ?? a.href, n: ++opened })
  }
  const dialog = open ? (
    <Suspense fallback={null}>
      <RecordDialog key={open.n} href={open.href} onClose={close} />
    </Suspense>
  ) : null
  return { handlers: { onClickCapture, onPointerOverCapture: prefetch, onFocusCapture: prefetch }, dialog }
}
