/** The start of every dashboard loader: the signed-in user's facility and screen, its time zone and the period in the URL. */
import type { AppLoadContext } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { timeZoneOf } from '../../facilities/facts.server'
import { keyLit, tableOf } from '../../db/sql'
import { readPeriod, type Period } from './period'

export interface DashCtx {
  context: AppLoadContext
  facility: string
  period: Period
  notices: string[]
  /** labels of referenced records, by id */
  labels(collection: string, ids: string[]): Promise<Map<string, string>>
}

export async function dashCtx(request: Request, context: AppLoadContext, path: string, now = new Date()): Promise<DashCtx> {
  const { facility } = await requireScreen(request, context, path)
  const timeZone = await timeZoneOf(context, facility)
  const { period, notices } = readPeriod(new URL(request.url).searchParams, timeZone, now)
  return { context, facility, period, notices, labels: (c, ids) => labelsOf(context, facility, c, ids) }
}

export async function labelsOf(context: AppLoadContext, facility: string, collection: string, ids: string[]): Promise<Map<string, string>> {
  const want = [...new Set(ids.filter(Boolean))]
  if (!want.length || !(await context.database.schemas.hasCollection(collection))) return new Map()
  return context.database.store.labelsOf(facility, collection, 'name', want)
}

/** A referenced record's label, '(none)' for a missing reference. */
export const nameOf = (m: Map<string, string>, id: string | null) => (!id ? '(none)' : (m.get(id) ?? id))

/** SQL for the label (`name`) of the record of `collection` whose id is `idExpr`, in the facility ($1); NULL when the table does not exist. */
export async function labelSql(x: Pick<DashCtx, 'context'>, collection: string, idExpr: string, labelField = 'name'): Promise<string> {
  if (!(await x.context.database.schemas.hasCollection(collection))) return 'NULL'
  return `(SELECT l.doc ->> ${keyLit(labelField)} FROM ${tableOf(collection)} l WHERE l.org = $1 AND l.id = ${idExpr})`
}
