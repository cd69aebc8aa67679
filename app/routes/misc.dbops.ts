/**
 * POST /misc/dbops?c={table}&op=pipe (SPEC §7): an aggregation pipeline over one collection of
 * the caller's organisation, compiled into one SQL statement (app/api/pipeline, decision 009).
 * The body is the pipeline array; the answer is the array of output documents. A pipeline ending
 * in the table-page $facet also gets `pages` in its first element.
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { requireApiCaller } from '../api/auth.server'
import { withPages } from '../api/pipeline/pages'
import { runPipeline } from '../api/pipeline/run.server'
import { api, readJson } from '../api/respond.server'
import { isCollectionName, tableOf } from '../db/sql'
import { badInput, notFound } from '../utils/errors'

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
    const known = new Set(await context.database.schemas.listCollections())
    if (!known.has(c)) throw notFound(`unknown table "${c}"`)
    const pipeline = await readJson(request, MAX_BODY_BYTES)
    if (!Array.isArray(pipeline)) throw badInput('the body must be a JSON array of pipeline stages')
    const tableFor = (name: string) => {
      if (!isCollectionName(name) || !known.has(name)) throw badInput(`$lookup: unknown table ${JSON.stringify(name.slice(0, 60))}`)
      return tableOf(name)
    }
    const docs = await runPipeline(context.database.db, tableOf(c), caller.org, pipeline, { tableFor, maxRows: MAX_ROWS, timeoutMs: context.env.PIPELINE_TIMEOUT_MS })
    return Response.json(withPages(pipeline, docs))
  }, context.logger)
}

/** Only POST: a GET answers with the envelope rather than Remix's HTML. */
export async function loader() {
  return api(async () => {
    throw badInput('POST a pipeline array to /misc/dbops?c={table}&op=pipe')
  })
}
