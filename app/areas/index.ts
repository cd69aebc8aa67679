/**
 * Every business area's browser-safe half, plugged in once per process by installAreas(): called
 * by app/entry.client.tsx before hydration and, through installServerAreas(), by the server.
 * Add an area here when it has pure rules (decision 022).
 */
import type { Area } from './area'
import { area as onboarding } from './onboarding/area'
import { area as visitors } from './visitors/area'
import { area as campaigns } from './campaigns/area'

export const AREAS: Area[] = [onboarding, visitors, campaigns]

let installed = false
export function installAreas(): void {
  if (installed) return
  installed = true
  for (const a of AREAS) a.install?.()
}
