/**
 * GET /getfiles/{org}/{name}?subdir=: a file an organisation keeps (its logo first of all: the
 * footer shows /getfiles/{org}/logo.png; then what its users upload, app/files/store.server.ts).
 * Files live under DATA_DIR/files/{org}/{subdir?}/; only signed-in users of that organisation (or of
 * the platform's shared files) get them. Text files (csv, txt) are always downloads, never shown.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { facilitiesOf } from '../auth/entitlements'
import { findUser } from '../auth/accounts.server'
import { loadSession, readSessionId } from '../auth/session.server'
import { folderOf, SAFE_NAME as SAFE, SAFE_SUBDIR } from '../files/store.server'
import { PLATFORM_ORG } from '../route-map'

const TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.svg': 'image/svg+xml', '.pdf': 'application/pdf', '.webp': 'image/webp',
  '.csv': 'text/plain; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
}
/** shown as text would invite a browser to guess: always saved instead */
const DOWNLOAD = new Set(['.csv', '.txt'])

const text = (status: number, body: string) => new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const org = params.org ?? ''
  const name = params.name ?? ''
  const subdir = new URL(request.url).searchParams.get('subdir') || null
  if (!SAFE.test(org) || !SAFE.test(name) || name.includes('..') || (subdir && !SAFE_SUBDIR.test(subdir))) return text(400, 'That is not a file name.')
  const look = await loadSession(context.database, readSessionId(request), context.env.IDLE_TIMEOUT_S)
  if (look.state !== 'active') return text(401, 'Sign in first.')
  const user = await findUser(context.database, look.session.uid)
  if (!user) return text(401, 'Sign in first.')
  if (org !== PLATFORM_ORG && !facilitiesOf(user, [org]).includes(org)) return text(403, 'This file belongs to another organisation.')
  const ext = path.extname(name).toLowerCase()
  const type = TYPES[ext]
  if (!type) return text(404, 'No such file.')
  try {
    const body = await fs.readFile(path.join(folderOf(context.env.DATA_DIR, org, subdir), name))
    // SVG could carry script: never let it run in our origin
    const headers: Record<string, string> = { 'Content-Type': type, 'Cache-Control': 'private, max-age=300', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" }
    if (DOWNLOAD.has(ext)) headers['Content-Disposition'] = `attachment; filename="${name}"`
    return new Response(body, { headers })
  } catch {
    return text(404, 'No such file.')
  }
}
