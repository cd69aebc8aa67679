/**
 * The organisation's footer logo (SPEC §2.1): `DATA_DIR/files/{org}/logo.png`, served by getfiles.
 * Looked up on every page (one stat: cheap) so a page of an organisation without one shows Canopy's own
 * instead of requesting a file that answers 404 (issue 32 item 9), and a logo just added shows at once.
 */
import { fileStorage } from './storage.server'

export async function logoOf(dataDir: string, org: string | null): Promise<string | null> {
  if (!org) return null
  const has = !!(await fileStorage(dataDir).stat(org, null, 'logo.png').catch(() => null))
  return has ? `/getfiles/${encodeURIComponent(org)}/logo.png` : null
}
