/**
 * SPEC §8 toasts, top right: notification toasts stay 10 s (and while hovered), 'Server
 * connection established' 3 s, errors until the condition clears. The region is aria-live and
 * rendered on the server, so a message from the server shows without JavaScript; with it,
 * `toast()` adds more from anywhere (connection, network, later device events).
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'

export type ToastKind = 'success' | 'error' | 'info'
export interface Toast {
  id: number
  kind: ToastKind
  text: string
  /** ms before it closes; 0 = until dismissed or replaced */
  ms: number
  /** a toast with the same key replaces the previous one (connection state, network state) */
  key?: string
}

export const NOTIFICATION_MS = 10_000
let toasts: Toast[] = []
let nextId = 1
const listeners = new Set<() => void>()
const changed = () => listeners.forEach((l) => l())

export function toast(text: string, opts: { kind?: ToastKind; ms?: number; key?: string } = {}) {
  const t: Toast = { id: nextId++, kind: opts.kind ?? 'info', text, ms: opts.ms ?? NOTIFICATION_MS, key: opts.key }
  toasts = [...toasts.filter((x) => !t.key || x.key !== t.key), t].slice(-5)
  changed()
  return t.id
}

export function dismiss(idOrKey: number | string) {
  toasts = toasts.filter((x) => x.id !== idOrKey && x.key !== idOrKey)
  changed()
}

const subscribe = (l: () => void) => (listeners.add(l), () => listeners.delete(l))
const EMPTY: Toast[] = []

const STYLE: Record<ToastKind, string> = {
  success: 'border-canopy-500 bg-canopy-900 text-canopy-50',
  error: 'border-red-500 bg-red-950 text-red-50',
  info: 'border-slate-600 bg-slate-900 text-slate-100',
}

function ToastItem({ t }: { t: Toast }) {
  const [hovered, setHovered] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => {
    if (!t.ms || hovered) return
    timer.current = setTimeout(() => dismiss(t.id), t.ms)
    return () => clearTimeout(timer.current)
  }, [t.id, t.ms, hovered])
  return (
    <div role={t.kind === 'error' ? 'alert' : 'status'} data-toast={t.kind} onMouseEnter={() => setHovered(true)} onMouseLeave={() => setHovered(false)} className={`pointer-events-auto flex items-start gap-3 rounded-md border px-4 py-3 shadow-lg ${STYLE[t.kind]}`}>
      <p className="flex-1">{t.text}</p>
      <button type="button" onClick={() => dismiss(t.id)} aria-label="Dismiss" className="-my-2 -mr-2 min-h-11 min-w-11 rounded">
        ×
      </button>
    </div>
  )
}

/** The toast region; `serverMessage` comes from the loader and needs no JavaScript. */
export function Toaster({ serverMessage }: { serverMessage?: string | null }) {
  const list = useSyncExternalStore(subscribe, () => toasts, () => EMPTY)
  return (
    <div aria-live="polite" className="pointer-events-none fixed right-4 top-16 z-30 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2">
      {serverMessage ? <p className="pointer-events-auto rounded-md border border-slate-600 bg-slate-900 px-4 py-3 shadow-lg">{serverMessage}</p> : null}
      {list.map((t) => (
        <ToastItem key={t.id} t={t} />
      ))}
    </div>
  )
}
