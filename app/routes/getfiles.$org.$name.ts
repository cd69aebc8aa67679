/**
 * GET /getfiles/{org}/{name}: a file an organisation keeps (its logo first of all: the footer
 * shows /getfiles/{org}/logo.png). Files live under DATA_DIR/files/{org}/; only signed-in users
 * of that organisation (or of the platform's shared files) get them. Uploading arrives with the
 * files API; until then an administrator places the file there.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { facilitiesOf } from '../auth/entitlements'
import { findUser } from '../auth/accounts.server'
import { loadSession, readSessionId } from '../auth/session.server'
import { PLATFORM_ORG } from '../route-map'

const TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.svg': 'image/svg+xml', '.pdf': 'application/pdf', '.webp': 'image/webp' }
const SAFE = /^[A-Za-z0-9][\w.-]{0,120}$/

const text = (status: number, body: string) => new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const org = params.org ?? ''
  const name = params.name ?? ''
  if (!SAFE.test(org) || !SAFE.test(name) || name.includes('..')) return text(400, 'That is not a file name.')
  const look = await loadSession(context.database, readSessionId(request), context.env.IDLE_TIMEOUT_S)
  if (look.state !== 'active') return text(401, 'Sign in first.')
  const user = await findUser(context.database, look.session.uid)
  if (!user) return text(401, 'Sign in first.')
  if (org !== PLATFORM_ORG && !facilitiesOf(user, [org]).includes(org)) return text(403, 'This file belongs to another organisation.')
  const type = TYPES[path.extname(name).toLowerCase()]
  if (!type) return text(404, 'No such file.')
  try {
    const body = await fs.readFile(path.join(context.env.DATA_DIR, 'files', org, name))
    // SVG could carry script: never let it run in our origin
    return new Response(body, { headers: { 'Content-Type': type, 'Cache-Control': 'private, max-age=300', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" } })
  } catch {
    return text(404, 'No such file.')
  }
}
