/**
 * SPEC §2.1/§9: idle for IDLE_TIMEOUT_S logs the user out. The server enforces it; this shows
 * it, and with JavaScript takes the page to the login view when the time is up (a request is
 * what counts as activity, as on the server).
 */
import { useLocation } from '@remix-run/react'
import { useEffect } from 'react'

export function IdleNotice({ seconds }: { seconds: number }) {
  const location = useLocation()
  useEffect(() => {
    const t = setTimeout(() => window.location.assign('/Welcome?msg=idle'), seconds * 1000 + 1000)
    return () => clearTimeout(t)
  }, [location.key, seconds])
  const minutes = Math.round(seconds / 60)
  return (
    <p className="px-4 py-2 text-center text-xs text-slate-400" data-idle-seconds={seconds}>
      For your security you are signed out after {minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${seconds} seconds`} without activity.
    </p>
  )
}
