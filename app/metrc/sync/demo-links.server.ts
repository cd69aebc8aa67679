/**
 * The demo's facilities linked to the METRC emulator that ships with Canopy (issue 9), so a fresh
 * `npm start` syncs its Metrc tables and sends its pushes with nothing to type: greenleaf to the
 * cultivation license, harbor to the distributor. Only with the in-process emulator, demo data and
 * METRC_DEMO_LINKS on; a facility that already has a link (an admin changed it) is left alone.
 */
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import { PLATFORM_ORG } from '../../route-map'
import { DEMO_USER_KEY, GROW_LICENSE, HARBOR_LICENSE } from '../emulator/model'
import { linkOf, saveLink } from './links.server'

const DEMO_LINKS = [
  { org: 'greenleaf', state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY },
  { org: 'harbor', state: 'CO', license: HARBOR_LICENSE, key: 'canopy-demo-user-key-harbor' },
]

export async function linkDemoFacilities(database: Database, env: Env, logger: Logger): Promise<number> {
  if (env.DEMO_DATA !== '1' || env.METRC_DEMO_LINKS !== '1' || env.METRC_VENDOR_KEY) return 0
  let n = 0
  for (const l of DEMO_LINKS) {
    if (!(await database.store.get(PLATFORM_ORG, 'org', l.org).catch(() => null)) || (await linkOf(database, l.org))) continue
    await saveLink(database, env.SESSION_SECRET, { uid: 'demo-seed', requestId: 'demo-links' }, l.org, { state: l.state, license: l.license, key: l.key }, null)
    n++
  }
  if (n) logger.info({ facilities: n }, 'demo facilities linked to the METRC emulator')
  return n
}
