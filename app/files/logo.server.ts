/**
 * The organisation's footer logo (SPEC §2.1): `DATA_DIR/files/{org}/logo.png`, served by getfiles.
 * Looked up (a stat, remembered for a minute) so a page of an organisation without one shows
 * Canopy's own instead of requesting a file that answers 404 (issue 32 item 9).
 */
import { fileStorage } from './storage.server'

const TTL_MS = 60_000
const seen = new Map<string, { at: number; has: boolean }>()

export async function logoOf(dataDir: string, org: string | null): Promise<string | null> {
  if (!org) return null
  const key = `${dataDir}\0${org}`
  const hit = seen.get(key)
  let has = hit && Date.now() - hit.at < TTL_MS ? hit.has : undefined
  if (has === undefined) {
    has = !!(await fileStorage(dataDir).stat(org, null, 'logo.png').catch(() => null))
    seen.set(key, { at: Date.now(), has })
  }
  return has ? `/getfiles/${encodeURIComponent(org)}/logo.png` : null
}
