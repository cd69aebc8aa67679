/**
 * The idle notice's watch (components/idle-notice.tsx; SPEC §2.1/§9, issue 32 item 7), loaded once the
 * page has hydrated (decision 071: no page needs it to show or to work): activity pings, the warning a
 * minute before the end, and keeping what was typed when the time is up.
 */
import { useLocation } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { keepDrafts, restoreDrafts } from '../client/form-drafts'
import { useT } from '../i18n/t'
import { toast } from './toasts'

const ENDPOINT = '/session-keepalive'
const ACTIVITY = ['keydown', 'input', 'pointerdown', 'wheel', 'touchstart', 'scroll'] as const

type Answer = { signedIn: boolean; secondsLeft: number }

async function ask(method: 'GET' | 'POST'): Promise<Answer | null> {
  try {
    const r = await fetch(ENDPOINT, { method, credentials: 'same-origin', headers: { Accept: 'application/json' } })
    return r.ok ? ((await r.json()) as Answer) : null
  } catch {
    return null // offline or the server restarting: the caller decides
  }
}

export function IdleWatch({ seconds, uid }: { seconds: number; uid: string }) {
  const t = useT()
  const location = useLocation()
  const here = location.pathname + location.search
  /** seconds left shown in the warning; null: no warning */
  const [warning, setWarning] = useState<number | null>(null)
  const lead = Math.min(60, Math.floor(seconds / 2))
  const pingEvery = Math.min(60, Math.floor(seconds / 4)) * 1000
  const st = useRef({ deadline: 0, lastPing: 0, timer: 0 as ReturnType<typeof setTimeout> | 0, tick: 0 as ReturnType<typeof setInterval> | 0, here })
  st.current.here = here
  /** the check at the warning and at the end (a ref: the timers set earlier call the current one) */
  const checkRef = useRef<() => void>(() => {})

  const leave = useCallback(() => {
    keepDrafts(uid, st.current.here)
    window.location.assign(`/Welcome?${new URLSearchParams({ msg: 'idle', redirectTo: st.current.here })}`)
  }, [uid])

  const stopTimers = () => {
    if (st.current.timer) clearTimeout(st.current.timer)
    if (st.current.tick) clearInterval(st.current.tick)
    st.current.timer = 0
    st.current.tick = 0
  }

  /** the server says `left` seconds remain: warn `lead` seconds before, check again at the end */
  const schedule = useCallback(
    (left: number) => {
      stopTimers()
      const s = st.current
      s.deadline = Date.now() + left * 1000
      const untilWarn = s.deadline - lead * 1000 - Date.now()
      if (untilWarn > 0) {
        setWarning(null)
        s.timer = setTimeout(() => checkRef.current(), untilWarn)
        return
      }
      // within the last minute: count down, and ask again when the time is up
      setWarning(Math.max(0, Math.ceil((s.deadline - Date.now()) / 1000)))
      s.tick = setInterval(() => setWarning(Math.max(0, Math.ceil((s.deadline - Date.now()) / 1000))), 1000)
      s.timer = setTimeout(() => checkRef.current(), Math.max(0, s.deadline - Date.now()))
    },
    [lead],
  )

  /** asks without counting as activity: another tab may have kept the session going */
  const check = useCallback(async () => {
    const a = await ask('GET')
    if (a && a.signedIn && a.secondsLeft > 0) return schedule(a.secondsLeft)
    if (!a && Date.now() < st.current.deadline) return schedule(Math.ceil((st.current.deadline - Date.now()) / 1000))
    stopTimers()
    leave()
  }, [schedule, leave])
  checkRef.current = () => void check()

  const ping = useCallback(async () => {
    st.current.lastPing = Date.now()
    const a = await ask('POST')
    if (a && a.signedIn) return schedule(a.secondsLeft)
    if (a && !a.signedIn) leave()
  }, [schedule, leave])

  // every page shown came from the server, which counted its request (it writes last_seen at most
  // every 30 s, so count from that much earlier; the check before warning asks the exact time)
  useEffect(() => {
    const slack = Math.min(30, Math.floor(seconds / 4))
    st.current.lastPing = Date.now() - slack * 1000
    schedule(Math.max(1, seconds - slack))
    return stopTimers
  }, [location.key, seconds, schedule])

  // typing, tapping, scrolling: tell the server, at most once a minute (at once while the warning shows)
  useEffect(() => {
    const onActivity = () => {
      if (Date.now() - st.current.lastPing >= pingEvery) void ping()
    }
    for (const e of ACTIVITY) window.addEventListener(e, onActivity, { capture: true, passive: true })
    document.documentElement.dataset.idleWatch = 'on'
    // the event stream says the sign-in ended (idle, or logout in another tab)
    const onSignedOut = () => checkRef.current()
    window.addEventListener('canopy:signedout', onSignedOut)
    return () => {
      for (const e of ACTIVITY) window.removeEventListener(e, onActivity, { capture: true })
      window.removeEventListener('canopy:signedout', onSignedOut)
      delete document.documentElement.dataset.idleWatch
    }
  }, [ping, pingEvery])

  // back after signing in again: what was typed before is put back, once
  useEffect(() => {
    const n = restoreDrafts(uid, here)
    if (n > 0) toast(t('What you typed before you were signed out is back. Check it and save.'), { kind: 'info', ms: 0, key: 'drafts' })
  }, [uid, here, t])

  return warning !== null ? <IdleWarning left={warning} onStay={() => void ping()} /> : null
}

function IdleWarning({ left, onStay }: { left: number; onStay: () => void }) {
  const t = useT()
  const stay = useRef<HTMLButtonElement>(null)
  useEffect(() => stay.current?.focus(), [])
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 p-4">
      <div role="alertdialog" aria-modal="true" aria-labelledby="idle-title" aria-describedby="idle-text" className="w-full max-w-md rounded-lg border border-amber-500 bg-slate-900 p-6 shadow-xl">
        <h2 id="idle-title" className="text-lg font-semibold text-amber-200">
          {t('Still there?')}
        </h2>
        <p id="idle-text" className="mt-2 text-slate-200">
          {t('Nothing has happened for a while. For your security you will be signed out in')} <span data-testid="idle-seconds-left">{left}</span> {t('seconds. What you typed is kept and put back when you sign in again.')}
        </p>
        <button ref={stay} type="button" onClick={onStay} className="mt-4 min-h-11 w-full rounded-md bg-canopy-600 px-4 font-semibold text-white hover:bg-canopy-500">
          {t('Stay signed in')}
        </button>
      </div>
    </div>
  )
}
