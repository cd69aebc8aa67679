/**
 * POST /client-report: what a browser tells the server about itself (a script chunk that did
 * not load within 120 s). Logged as a warning; small bodies only, a few per minute per address.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { readJson } from '../api/respond.server'

const PER_MINUTE = 10
const seen = new Map<string, { at: number; n: number }>()

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return new Response(null, { status: 405 })
  const ip = context.clientIp ?? 'unknown'
  const now = Date.now()
  const slot = seen.get(ip)
  if (slot && now - slot.at < 60_000 && slot.n >= PER_MINUTE) return new Response(null, { status: 429 })
  seen.set(ip, slot && now - slot.at < 60_000 ? { at: slot.at, n: slot.n + 1 } : { at: now, n: 1 })
  if (seen.size > 10_000) seen.clear()
  let body: unknown
  try {
    body = await readJson(request, 2_000)
  } catch {
    return new Response('A small JSON body is expected.', { status: 400 })
  }
  const b = (body ?? {}) as Record<string, unknown>
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : undefined)
  context.logger.warn({ client: { kind: str(b.kind), why: str(b.why), path: str(b.path), tries: Number(b.tries) || 0, ua: request.headers.get('user-agent')?.slice(0, 200) } }, 'browser report')
  return new Response(null, { status: 204 })
}
