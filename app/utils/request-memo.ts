/**
 * Reads shared by the loaders of one page request. Remix runs the root loader and the screen's
 * loader side by side with the same load context; both need the session and the user. On GET
 * and HEAD requests (no action has run, nothing in the request changes data) the first read's
 * promise is reused; on other methods every read goes to the database.
 */
import type { AppLoadContext } from '@remix-run/node'

export function readsFor(method: string): Map<string, Promise<unknown>> | undefined {
  return method === 'GET' || method === 'HEAD' ? new Map() : undefined
}

export function once<T>(context: Pick<AppLoadContext, 'reads'>, key: string, read: () => Promise<T>): Promise<T> {
  const reads = context.reads
  if (!reads) return read()
  let p = reads.get(key) as Promise<T> | undefined
  if (!p) {
    p = read()
    reads.set(key, p)
    p.catch(() => reads.delete(key)) // a failed read is not remembered
  }
  return p
}
