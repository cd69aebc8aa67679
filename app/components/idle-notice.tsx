/**
 * SPEC §2.1/§9: idle for IDLE_TIMEOUT_S logs the user out. The server enforces it (a request is
 * activity there); this says so, and with JavaScript (issue 32 item 7):
 * - typing, tapping and scrolling are activity too: the page tells the server (`/session-keepalive`,
 *   at most once a minute), so a person filling a long form is never signed out under their hands;
 * - a minute before the end an alert dialog counts down, with "Stay signed in";
 * - at the end it first asks the server (another tab may have kept the session), then keeps what
 *   was typed and not saved (client/form-drafts.ts) and goes to the login view, which brings the
 *   person back to this page, where the typed values are put back once.
 */
import { lazy, Suspense, useEffect, useState } from 'react'

// loaded after hydration, so the first visit's critical JavaScript does not carry it (decision 071)
const IdleWatch = lazy(() => import('./idle-watch').then((m) => ({ default: m.IdleWatch })))

export function IdleNotice({ seconds, uid }: { seconds: number; uid: string }) {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const minutes = Math.round(seconds / 60)
  return (
    <>
      <p className="px-4 py-2 text-center text-xs text-slate-400" data-idle-seconds={seconds}>
        For your security you are signed out after {minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${seconds} seconds`} without activity.
      </p>
      {hydrated ? (
        <Suspense fallback={null}>
          <IdleWatch seconds={seconds} uid={uid} />
        </Suspense>
      ) : null}
    </>
  )
}
