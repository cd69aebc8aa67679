/**
 * Calls the `/dt/v1` routes as Remix would: `path` after /dt/v1/, through the route module it
 * picks (list or one record), with an access token. Used by the API integration tests.
 */
import type { AppLoadContext } from '@remix-run/node'
import { action as listAction, loader as listLoader } from '#app/routes/dt.v1.$table'
import { action as oneAction, loader as oneLoader } from '#app/routes/dt.v1.$table.$id'

export interface DtCallOptions {
  /** the token to send; null: none; default: the token of `as` */
  tok?: string | null
  /** whose token (default: the caller's default user) */
  as?: string
  body?: unknown
  /** a body sent as is (not JSON-encoded) */
  raw?: string
  headers?: Record<string, string>
}

export type DtAnswer = { status: number; body: any }

export function dtCaller(o: { ctx: () => AppLoadContext; token: (uid: string) => string; defaultUid: string }) {
  return async function call(method: string, path: string, opts: DtCallOptions = {}): Promise<DtAnswer> {
    const url = new URL(`http://canopy.test/dt/v1/${path}`)
    const segs = url.pathname.split('/').slice(3)
    const headers: Record<string, string> = { ...(opts.tok === null ? {} : { 'x-access-token': opts.tok ?? o.token(opts.as ?? o.defaultUid) }), ...opts.headers }
    const text = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body))
    if (text !== undefined) headers['content-type'] = 'application/json'
    const request = new Request(url, { method, headers, ...(text !== undefined ? { body: text } : {}) })
    const params = { table: decodeURIComponent(segs[0] ?? ''), ...(segs.length > 1 ? { id: decodeURIComponent(segs.slice(1).join('/')) } : {}) }
    const mod = segs.length > 1 ? { loader: oneLoader, action: oneAction } : { loader: listLoader, action: listAction }
    const fn = method === 'GET' ? mod.loader : mod.action
    const res = (await fn({ request, context: o.ctx(), params } as any)) as Response
    return { status: res.status, body: await res.json() }
  }
}
