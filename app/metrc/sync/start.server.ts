/**
 * The METRC sync in this process (server.ts): the demo organisations linked to the in-process
 * emulator's seeded licenses (once; an administrator's link is never replaced), and the syncer's
 * schedule. Nothing is scheduled for an organisation without a link.
 */
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import { PLATFORM_ORG } from '../../route-map'
import type { RunningEmulator } from '../emulator'
import { DEMO_USER_KEY, GROW_LICENSE, HARBOR_LICENSE } from '../emulator/model'
import { linkOf, saveLink } from './links.server'
import { MetrcSyncer, registerSyncer } from './syncer.server'

/** demo organisation → the emulator license and key it answers to */
export const DEMO_LINKS: Record<string, { state: string; license: string; key: string }> = {
  greenleaf: { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY },
  harbor: { state: 'CO', license: HARBOR_LICENSE, key: 'canopy-demo-user-key-harbor' },
}

export async function startMetrcSync(o: { database: Database; env: Env; logger: Logger; emulator: RunningEmulator | null }): Promise<MetrcSyncer> {
  const { database, env, logger } = o
  if (o.emulator) {
    for (const [org, link] of Object.entries(DEMO_LINKS)) {
      // saved unchecked (the first sync checks it); an administrator's own link is never replaced
      if ((await database.store.get(PLATFORM_ORG, 'org', org)) && !(await linkOf(database, org))) await saveLink(database, env.SESSION_SECRET, { uid: 'demo-seed' }, org, link, null)
    }
  }
  const syncer = new MetrcSyncer(database, env, { logger })
  registerSyncer(syncer)
  syncer.start()
  return syncer
}
