/**
 * A form post that reached no server (SPEC §8; decision 060). With JavaScript a Remix form posts through
 * `fetch`: when that fails at the network level (the server is down or restarting), or something in front
 * of Canopy answers with its own error page instead of the action's JSON, a route's `clientAction` answers
 * with `unreachableResult(…)` instead of letting the error page replace the form. After such an answer the
 * loaders are not asked again (`skipRevalidationWhenUnreachable`): they could not answer either, and the
 * message would wait for them.
 */
import type { ShouldRevalidateFunction } from '@remix-run/react'

export const UNREACHABLE = 'unreachable' as const

export type UnreachableResult = { reached: typeof UNREACHABLE; message: string; tone: 'error' }

export const unreachableResult = <T extends object>(message: string, extra?: T): UnreachableResult & T =>
  ({ ...(extra as T), reached: UNREACHABLE, message, tone: 'error' }) as UnreachableResult & T

export const isUnreachableResult = (r: unknown): r is UnreachableResult =>
  !!r && typeof r === 'object' && (r as { reached?: unknown }).reached === UNREACHABLE

/** `fetch` rejects with a TypeError when no response came (refused, reset, DNS, offline); an abort is not that. */
export const isNetworkFailure = (e: unknown): boolean => e instanceof TypeError

/**
 * Calls the server's action; a network failure or a non-JSON answer (a proxy's 502/503/504 page) becomes
 * `onUnreachable()`. Redirects and the server's own errors are thrown on as before.
 */
export async function postOrUnreachable<R>(serverAction: () => Promise<R>, onUnreachable: () => R): Promise<R> {
  let r: R
  try {
    r = await serverAction()
  } catch (e) {
    if (isNetworkFailure(e)) return onUnreachable()
    throw e
  }
  return typeof r === 'string' ? onUnreachable() : r
}

export const skipRevalidationWhenUnreachable: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  isUnreachableResult(actionResult) ? false : defaultShouldRevalidate
