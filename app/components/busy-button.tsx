/**
 * A submit button that shows its post is on its way (issue 32 item 10): while `busy` it is
 * disabled, marked `aria-busy`, and reads `busyText` ("Saving…", "Working…", "Signing in…") beside
 * a spinner; a polite live region beside it tells a screen reader the same. Idle, it is the button
 * as it was. Without JavaScript the browser shows its own loading sign instead.
 */
import type { ButtonHTMLAttributes } from 'react'

export function Spinner() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="h-4 w-4 shrink-0 animate-spin motion-reduce:animate-none" fill="none">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  )
}

/** The text a busy button shows: a spinner and the words. */
export function BusyLabel({ text }: { text: string }) {
  return (
    <span className="inline-flex items-center justify-center gap-2">
      <Spinner />
      {text}
    </span>
  )
}

export function BusyButton({ busy, busyText, children, disabled, className = '', ...p }: ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean; busyText: string }) {
  return (
    <>
      <button {...p} disabled={disabled || busy} aria-busy={busy || undefined} className={`${className} ${busy ? 'cursor-wait opacity-80' : ''}`}>
        {busy ? <BusyLabel text={busyText} /> : children}
      </button>
      {/* outside the button, so its name stays its words; always there, so the change is announced */}
      <span role="status" aria-live="polite" className="sr-only">
        {busy ? busyText : ''}
      </span>
    </>
  )
}
