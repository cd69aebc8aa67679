/**
 * The shell's keyboard shortcuts and scanner jump (issue 31 item 2; decision 067), JavaScript only: `/`
 * searches the table, `n` adds, `?` shows the shortcuts, ArrowDown/ArrowUp move a visible focus through
 * the table's rows and Enter opens the focused row's record. A keyboard-wedge scanner's burst ending in
 * Enter, outside a text field on a table screen, searches the table by tag (`scan=1`: one match opens its
 * record). Nothing acts while the focus is in a field or a modifier key is held (client/keyboard.ts).
 * Without JavaScript the list is a disclosure in the footer (ShortcutsHelp).
 */
import { useLocation, useNavigate } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { isTyping, nextRow, scanUrl, shortcutOf, SHORTCUTS, WedgeDetector } from '../client/keyboard'
import { useT } from '../i18n/t'

/** the table screen's elements the shortcuts use (components/table): its rows, search box and Add link */
const ROWS = 'table.data-table > tbody > tr[data-id]'
const SEARCH = '#table-search'
const ADD = 'a[data-shortcut="add"]'
/** single-key shortcuts wait this long: a scanner's next key within it makes the key part of a scan */
const SCAN_GAP_MS = 50

function ShortcutList() {
  const t = useT()
  return (
    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
      {SHORTCUTS.map((s) => (
        <div key={s.does} className="contents">
          <dt>
            {s.keys.map((k) => (
              <kbd key={k} className="mr-1 rounded border border-slate-600 px-2 py-0.5 font-mono">
                {k}
              </kbd>
            ))}
          </dt>
          <dd>{t(s.does)}</dd>
        </div>
      ))}
    </dl>
  )
}

/** the footer's list of shortcuts: a <details>, so it opens without JavaScript */
export function ShortcutsHelp() {
  const t = useT()
  return (
    <details className="relative">
      <summary className="flex min-h-11 cursor-pointer list-none items-center rounded-md px-3 hover:bg-slate-800">{t('Keyboard shortcuts')}</summary>
      <div className="absolute bottom-full z-20 mb-1 w-80 rounded-md border border-slate-700 bg-slate-900 p-3 shadow-xl">
        <ShortcutList />
      </div>
    </details>
  )
}

export function KeyboardShortcuts() {
  const t = useT()
  const navigate = useNavigate()
  const location = useLocation()
  const dialog = useRef<HTMLDialogElement>(null)
  const [wedge] = useState(() => new WedgeDetector(SCAN_GAP_MS))
  const here = useRef(location.pathname)
  here.current = location.pathname

  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | undefined
    const rows = () => [...document.querySelectorAll<HTMLTableRowElement>(ROWS)]
    const act = (s: string) => {
      if (s === 'search') document.querySelector<HTMLInputElement>(SEARCH)?.focus()
      if (s === 'add') document.querySelector<HTMLAnchorElement>(ADD)?.click()
      if (s === 'help' && !dialog.current?.open) dialog.current?.showModal()
    }
    const onKey = (e: KeyboardEvent) => {
      // a field types its keys; an open dialog (this list, the record form, a confirmation) keeps them
      if (e.defaultPrevented || isTyping(e.target as HTMLElement) || document.querySelector('dialog[open]')) return wedge.reset()
      const shortcut = shortcutOf(e)
      if (e.ctrlKey || e.altKey || e.metaKey) return wedge.reset()
      const now = e.timeStamp || performance.now()
      if (e.key === 'Enter') {
        const code = wedge.enter(now)
        if (code && document.querySelector(ROWS + ', table.data-table, ' + SEARCH)) {
          clearTimeout(pending)
          e.preventDefault()
          const byTag = !!document.querySelector('#table-search-col option[value="tag"]')
          navigate(scanUrl(here.current, code, byTag))
          return
        }
        const row = (e.target as HTMLElement).closest?.('tr[data-id]')
        if (row && row.matches(ROWS)) {
          e.preventDefault()
          navigate(`${here.current}/${encodeURIComponent(row.getAttribute('data-id')!)}`)
        }
        return
      }
      const burst = wedge.inBurst(now)
      wedge.push(e.key, now)
      if (burst) return clearTimeout(pending) // a scanner is typing: its first key was no shortcut either
      if (shortcut === 'next' || shortcut === 'previous') {
        const all = rows()
        if (!all.length) return
        e.preventDefault()
        const i = nextRow(all.indexOf(document.activeElement as HTMLTableRowElement), all.length, shortcut === 'next' ? 1 : -1)
        all[i].tabIndex = -1
        all[i].focus()
        return
      }
      if (shortcut === 'search' || shortcut === 'add' || shortcut === 'help') {
        if (shortcut !== 'help' && !document.querySelector(shortcut === 'search' ? SEARCH : ADD)) return
        e.preventDefault()
        clearTimeout(pending)
        pending = setTimeout(() => act(shortcut), SCAN_GAP_MS + 10)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => {
      clearTimeout(pending)
      window.removeEventListener('keydown', onKey)
    }
  }, [navigate, wedge])

  return (
    <dialog ref={dialog} aria-labelledby="shortcuts-title" className="w-96 max-w-full rounded-lg border border-slate-600 bg-slate-900 p-4 text-slate-100 backdrop:bg-black/60">
      <h2 id="shortcuts-title" className="text-lg font-semibold">
        {t('Keyboard shortcuts')}
      </h2>
      <ShortcutList />
      <form method="dialog" className="mt-4 flex justify-end">
        <button type="submit" className="min-h-11 rounded-md border border-slate-600 px-4">
          {t('Close')}
        </button>
      </form>
    </dialog>
  )
}
