/**
 * POST /misc/dbops?c={table}&op=pipe (SPEC §7): an aggregation pipeline over one collection of
 * the caller's organisation, compiled into one SQL statement (app/api/pipeline, decision 010).
 * The body is the pipeline array; the answer is the array of output documents. A pipeline ending
 * in the table-page $facet also gets `pages` in its first element.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { requireApiCaller } from '../auth/api-caller.server'
import { withPages } from '../api/pipeline/pages'
import { runPipeline } from '../api/pipeline/run.server'
import { api, readJson } from '../api/respond.server'
import { isCollectionName, tableOf } from '../db/sql'
import { tableAccess } from '../records/access.server'
import { badInput, forbidden } from '../utils/errors'

/** A pipeline is small; anything bigger is not a pipeline. */
const MAX_BODY_BYTES = 256 * 1024
/** The most documents one answer may hold (a table page asks for far fewer). */
export const MAX_ROWS = 10_000

export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    const caller = await requireApiCaller(request, context)
    const url = new URL(request.url)
    const op = url.searchParams.get('op')
    if (op !== 'pipe') throw badInput(`op ${JSON.stringify((op ?? '').slice(0, 40))} is not supported; use op=pipe`)
    const c = url.searchParams.get('c') ?? ''
    if (!isCollectionName(c)) throw badInput(`c: ${JSON.stringify(c.slice(0, 60))} is not a table name`)
    // the same rule as /dt/v1: only tables a screen of this user shows in this facility (decision 009)
    const base = await tableAccess(context, caller.user, caller.org, c)
    const pipeline = await readJson(request, MAX_BODY_BYTES)
    if (!Array.isArray(pipeline)) throw badInput('the body must be a JSON array of pipeline stages')
    // every table a $lookup reads must be open to the user too, and live in the same organisation
    const lookups = new Map<string, string>()
    for (const name of lookupTables(pipeline)) {
      if (!isCollectionName(name)) throw badInput(`$lookup: ${JSON.stringify(name.slice(0, 60))} is not a table name`)
      const a = await tableAccess(context, caller.user, caller.org, name)
      if (a.org !== base.org) throw forbidden(`$lookup: "${name}" is not kept with "${c}"; a pipeline reads one organisation's tables`)
      lookups.set(name, tableOf(name))
    }
    const tableFor = (name: string) => {
      const t = lookups.get(name)
      if (!t) throw badInput(`$lookup: unknown table ${JSON.stringify(name.slice(0, 60))}`)
      return t
    }
    const docs = await runPipeline(context.database.db, tableOf(c), base.org, pipeline, { tableFor, maxRows: MAX_ROWS, timeoutMs: context.env.PIPELINE_TIMEOUT_MS, maxCost: context.env.PIPELINE_MAX_COST })
    return Response.json(withPages(pipeline, docs))
  }, context.logger)
}

/** The `from` of every $lookup, inside $facet too (the compiler refuses other shapes itself). */
function lookupTables(v: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 20 || !v || typeof v !== 'object') return out
  if (Array.isArray(v)) {
    for (const x of v) lookupTables(x, out, depth + 1)
    return out
  }
  for (const [k, x] of Object.entries(v)) {
    if (k === '$lookup' && x && typeof x === 'object' && typeof (x as { from?: unknown }).from === 'string') out.add((x as { from: string }).from)
    else lookupTables(x, out, depth + 1)
  }
  return out
}

/** Only POST: a GET answers with the envelope rather than Remix's HTML. */
export async function loader() {
  return api(async () => {
    throw badInput('POST a pipeline array to /misc/dbops?c={table}&op=pipe')
  })
}
