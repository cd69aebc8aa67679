/**
 * Facts about a facility (an organisation record under PLATFORM_ORG) that every layer above the
 * database reads: its time zone today. Cached per database (db/read-cache.server.ts).
 */
import type { AppLoadContext } from '@remix-run/node'
import { cachedRead } from '../db/read-cache.server'
import { isTimeZone } from '../format/zones'
import { PLATFORM_ORG } from '../route-map'

/** The facility's time zone (org.timezone), UTC when it has none or an unknown one. Every screen and save reads it. */
export async function timeZoneOf(context: Pick<AppLoadContext, 'database'>, facility: string): Promise<string> {
  const { store } = context.database
  return cachedRead(store, 'org', `tz:${facility}`, async () => {
    const [org] = await store.find(PLATFORM_ORG, 'org', { _id: facility }, 1)
    const tz = typeof org?.timezone === 'string' ? org.timezone : 'UTC'
    return isTimeZone(tz) ? tz : 'UTC'
  })
}
