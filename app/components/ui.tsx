/** Small shared building blocks: large touch targets, readable in a bright room and a dark one. */
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode } from 'react'
import { BusyButton } from './busy-button'

export function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-5 p-6">
      <h1 className="text-2xl font-semibold text-canopy-400">{title}</h1>
      {children}
    </main>
  )
}

export function Notice({ children, tone = 'info', id }: { children: ReactNode; tone?: 'info' | 'error' | 'success'; id?: string }) {
  const c = tone === 'error' ? 'border-red-500 bg-red-950 text-red-100' : tone === 'success' ? 'border-canopy-500 bg-canopy-900 text-canopy-50' : 'border-slate-600 bg-slate-900 text-slate-100'
  return (
    <p id={id} role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border px-3 py-2 ${c}`}>
      {children}
    </p>
  )
}

/** A button; given `busyText`, it shows "Saving…"-like words while `busy` (busy-button.tsx). */
export function Button({ tone = 'primary', className = '', busy, busyText, ...p }: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: 'primary' | 'plain' | 'danger'; busy?: boolean; busyText?: string }) {
  const c =
    tone === 'primary'
      ? 'bg-canopy-600 text-white hover:bg-canopy-500 disabled:bg-slate-700 disabled:text-slate-400'
      : tone === 'danger'
        ? 'bg-red-700 text-white hover:bg-red-600'
        : 'border border-slate-600 text-slate-100 hover:bg-slate-800'
  const cls = `min-h-11 rounded-md px-4 py-2 font-medium ${c} ${className}`
  return busyText ? <BusyButton {...p} busy={!!busy} busyText={busyText} className={cls} /> : <button {...p} className={cls} />
}

export function Field({ label, error, hint, ...p }: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: string; name: string }) {
  const id = p.id ?? `f-${p.name}`
  const desc = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm text-slate-300">
        {label}
      </label>
      <input
        {...p}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={desc}
        className="min-h-11 rounded-md border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100 focus:border-canopy-400 focus:outline-none"
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A record as label: value lines (what a delete will remove, a form's read-only fields). */
export function FieldSummary({ fields, className = '' }: { fields: Array<{ label: string; value: string }>; className?: string }) {
  return (
    <dl className={`grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md border border-slate-700 p-3 ${className}`}>
      {fields.map((f) => (
        <div key={f.label} className="contents">
          <dt className="text-slate-400">{f.label}</dt>
          <dd>
            <LongText text={f.value} />
          </dd>
        </div>
      ))}
    </dl>
  )
}

export const LONG_TEXT = 400

/** Text shown whole: past 400 characters, the start, then the rest behind "Show all" (works without JavaScript). */
export function LongText({ text, showAll = 'Show all' }: { text: string; showAll?: string }) {
  const chars = [...text]
  if (chars.length <= LONG_TEXT) return <span className="whitespace-pre-wrap break-words">{text}</span>
  return (
    <details className="group whitespace-pre-wrap break-words">
      <summary className="cursor-pointer list-none">
        {chars.slice(0, LONG_TEXT).join('')}
        <span className="group-open:hidden">
          … <span className="text-canopy-400 underline">{showAll}</span>
        </span>
      </summary>
      <span>{chars.slice(LONG_TEXT).join('')}</span>
    </details>
  )
}
