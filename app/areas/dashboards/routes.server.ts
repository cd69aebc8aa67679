/** The loaders of the four dashboard routes (thin route files in app/routes re-export them). */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import type { Board } from './board'
import { dashCtx, type DashCtx } from './common.server'
import { complianceBoard } from './compliance.server'
import { cultivationBoard } from './cultivation.server'
import { harvestsBoard } from './harvests.server'
import { plantsBoard } from './plants.server'

function loaderOf(path: string, build: (x: DashCtx) => Promise<Board>) {
  return async ({ request, context }: LoaderFunctionArgs) => json(await build(await dashCtx(request, context, path)), { headers: { 'Cache-Control': 'no-store' } })
}

export const plantsLoader = loaderOf('/DshPlants', plantsBoard)
export const harvestsLoader = loaderOf('/DshHarvests', harvestsBoard)
export const complianceLoader = loaderOf('/DshCompliance', (x) => complianceBoard(x))
export const cultivationLoader = loaderOf('/DshCultivation', cultivationBoard)
