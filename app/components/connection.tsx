/**
 * The browser's link to the server (SPEC §8): one EventSource on /events per tab. Its state
 * drives the footer's connection status and the connection toasts; the browser's online and
 * offline events drive the network toasts. Table changes are re-dispatched as a window event
 * (`canopy:table`) for the screens that show that table.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { REACH_EVENT, type ReachDetail, type ReachWhy } from '../client/server-retry'
import { NOTIFICATION_MS, toast } from './toasts'

/** SPEC §8's words for a data request that could not reach the server, by why (decision 060) */
export const REACH_MESSAGE: Record<ReachWhy, string> = {
  unanswered: 'Server unreachable',
  proxy: 'Server is not accessible, please try again later',
}
/** SPEC §8: a screen's schema (the edit form built from it) could not be loaded */
export const SCHEMA_UNREACHABLE = 'Could not access server, please try again later'

export type ConnectionState = 'connecting' | 'connected' | 'disrupted' | 'reconnected'
/** how long the footer says 'Reconnected' before 'Connected' again */
export const RECONNECTED_MS = 5000
export const TABLE_EVENT = 'canopy:table'
/** a sensor reading of this facility ({deviceID, ts, data}), for the Sensors dashboard */
export const READING_EVENT = 'canopy:reading'
/** a running Sync now of this user ({collection, requests, rows, done}), for the Metrc panel */
export const METRC_SYNC_EVENT = 'canopy:metrc-sync'
/** this user's unread count changed ({kind: 'messages' | …, count, …}), for the shell's badges and the pages that list them */
export const UNREAD_EVENT = 'canopy:unread'
/** a mail campaign's progress (app/areas/campaigns: the sender's `campaign` event) */
export const CAMPAIGN_EVENT = 'canopy:campaign'

/** the server's message bus as the event stream last said ('none': no bus configured; unknown before the stream opens) */
export type BusState = 'connecting' | 'connected' | 'offline' | 'none' | 'unknown'
let busState: BusState = 'unknown'
const busListeners = new Set<() => void>()
function setBus(s: BusState) {
  if (s === busState) return
  busState = s
  busListeners.forEach((l) => l())
}
/** The footer's device-bus status: live with JavaScript, 'unknown' without (and until the stream opens). */
export function useBusState(): BusState {
  return useSyncExternalStore(
    (l) => (busListeners.add(l), () => busListeners.delete(l)),
    () => busState,
    () => 'unknown',
  )
}

/**
 * `onResync`: called after the stream comes back from a break, and when the server says its bus
 * reconnected (`resync`): changes committed meanwhile were not announced, so the page reloads its data.
 */
export function useServerConnection(t: (key: string) => string, onResync?: () => void): ConnectionState {
  const resync = useRef(onResync)
  resync.current = onResync
  const [state, setState] = useState<ConnectionState>('connected')
  useEffect(() => {
    let es: EventSource | null = null
    let retry: ReturnType<typeof setTimeout> | undefined
    let wait = 1000
    let wasDown = false
    let stopped = false
    let settle: ReturnType<typeof setTimeout> | undefined
    const down = () => {
      setState('disrupted')
      if (!wasDown) toast(t('Server connection disrupted'), { kind: 'error', ms: 0, key: 'server' })
      wasDown = true
    }
    const open = () => {
      es = new EventSource('/events')
      es.addEventListener('ready', (e) => {
        wait = 1000
        setBus(((JSON.parse((e as MessageEvent).data || '{}') as { bus?: BusState }).bus ?? 'unknown'))
        clearTimeout(settle)
        if (wasDown) {
          toast(t('Server connection established'), { kind: 'success', ms: 3000, key: 'server' })
          setState('reconnected')
          settle = setTimeout(() => setState('connected'), RECONNECTED_MS)
          resync.current?.()
        } else setState('connected')
        wasDown = false
      })
      es.addEventListener('resync', () => resync.current?.())
      es.addEventListener('bus', (e) => setBus((JSON.parse((e as MessageEvent).data) as { state: BusState }).state))
      es.addEventListener('table', (e) => window.dispatchEvent(new CustomEvent(TABLE_EVENT, { detail: JSON.parse((e as MessageEvent).data) })))
      es.addEventListener('reading', (e) => window.dispatchEvent(new CustomEvent(READING_EVENT, { detail: JSON.parse((e as MessageEvent).data) })))
      es.addEventListener('unread', (e) => window.dispatchEvent(new CustomEvent(UNREAD_EVENT, { detail: JSON.parse((e as MessageEvent).data) })))
      es.addEventListener('campaign', (e) => window.dispatchEvent(new CustomEvent(CAMPAIGN_EVENT, { detail: JSON.parse((e as MessageEvent).data) })))
      es.addEventListener('metrc-sync', (e) => window.dispatchEvent(new CustomEvent(METRC_SYNC_EVENT, { detail: JSON.parse((e as MessageEvent).data) })))
      es.addEventListener('notification', (e) => {
        const n = JSON.parse((e as MessageEvent).data) as { title?: string; body?: string; from?: string }
        toast([n.title, n.body].filter(Boolean).join(': ') + (n.from ? ` (${n.from})` : ''), { kind: 'info', ms: NOTIFICATION_MS })
      })
      // the idle watch (idle-notice.tsx) asks the server, keeps what was typed and goes to the login view
      es.addEventListener('signedout', () => window.dispatchEvent(new Event('canopy:signedout')))
      es.onerror = () => {
        down()
        // the browser retries by itself unless the server refused the stream; then we retry, backing off to 30 s
        if (es?.readyState === EventSource.CLOSED && !stopped) {
          es.close()
          retry = setTimeout(open, wait)
          wait = Math.min(30_000, wait * 2)
        }
      }
    }
    open()
    const online = () => toast(t('Network is now connected'), { kind: 'success', key: 'network' })
    const offline = () => toast(t('Network disconnected'), { kind: 'error', ms: 0, key: 'network' })
    // a page's data load got no answer (app/client/server-retry.ts keeps trying it), SPEC §8: none at all is
    // 'Server unreachable'; a proxy's 502/503/504 in front of the server is 'Server is not accessible, …'
    const reach = (e: Event) => {
      const d = (e as CustomEvent<ReachDetail>).detail
      if (d.reachable) return
      setState('disrupted')
      wasDown = true
      toast(t(REACH_MESSAGE[d.why]), { kind: 'error', ms: 0, key: 'server' })
    }
    window.addEventListener(REACH_EVENT, reach)
    window.addEventListener('online', online)
    window.addEventListener('offline', offline)
    return () => {
      window.removeEventListener(REACH_EVENT, reach)
      stopped = true
      clearTimeout(retry)
      clearTimeout(settle)
      es?.close()
      window.removeEventListener('online', online)
      window.removeEventListener('offline', offline)
    }
    // one stream for the life of the shell; `t` changing language does not need a new one
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return state
}
