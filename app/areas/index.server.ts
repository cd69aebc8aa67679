/**
 * Every business area's server half, plugged in once per process by installServerAreas(): the
 * composition roots (app/main.server.ts, scripts/seed.ts, tests/setup.ts) call it before they use
 * the database. Add an area here when it has server hooks, seed data or jobs (decision 022).
 */
import type { AreaJobDeps, ServerArea } from './area'
import { installAreas } from './index'
import { serverArea as documents } from './documents/area.server'
import { serverArea as onboarding } from './onboarding/area.server'
import { serverArea as messaging } from './messaging/area.server'
import { serverArea as cultivation } from './cultivation/area.server'
import { serverArea as distribution } from './distribution/area.server'
import { serverArea as finance } from './finance/area.server'
import { serverArea as visitors } from './visitors/area.server'
import { serverArea as releaseNotes } from './release-notes/area.server'
import { serverArea as campaigns } from './campaigns/area.server'
import { serverArea as crm } from './crm/area.server'

export const SERVER_AREAS: ServerArea[] = [documents, onboarding, messaging, cultivation, distribution, finance, visitors, releaseNotes, campaigns, crm]

let installed = false
export function installServerAreas(): void {
  installAreas()
  if (installed) return
  installed = true
  for (const a of SERVER_AREAS) a.install?.()
}

/** Starts every area's jobs; the returned function stops them all. */
export function startAreaJobs(deps: AreaJobDeps): () => Promise<void> {
  const jobs = SERVER_AREAS.flatMap((a) => (a.start ? [{ name: a.name, job: a.start(deps) }] : []))
  return async () => {
    for (const { name, job } of jobs) await Promise.resolve(job.stop()).catch((e: Error) => deps.logger.warn({ area: name, err: e.message }, 'stopping an area job failed'))
  }
}
