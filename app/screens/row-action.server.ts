/**
 * The confirm page of a row action (decision 038): `/{screen}/act/{action}?sel=id&sel=id…` for
 * rows ticked on the table, or `?pick=all&{the view's own parameters}` for every row that matches
 * the view (its search, dates and active filter; the facility's rows only). GET says exactly what
 * will change and asks what the action needs; POST runs it in one transaction
 * (records/row-actions.server.ts) and goes back to the view with what was done.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireScreen } from '../auth/screens.server'
import type { SignedIn } from '../auth/require.server'
import type { Doc } from '../db/types'
import { BULK_EDIT } from '../records/bulk-edit.server'
import { actionContext, inputOf, MAX_ACTION_ROWS, rowActionOf, runRowAction, stampOf, type AskField } from '../records/row-actions.server'
import { rowRights } from '../records/rights'
import type { RowActionDecl } from '../schemas/table-schema'
import { badInput, isAppError, notFound, refusedAsPage } from '../utils/errors'
import { readView, type TableView } from './table-page.server'
import { listQueryToSearch } from './table-url'

/** Selection parameters: not part of the view. */
const SELECTION = ['sel', 'pick', 'stamp', 'n']

export interface RowActionPage {
  kind: 'row-action'
  title: string
  screen: string
  action: RowActionDecl
  count: number
  /** every row that matches the view (else the ticked ones) */
  all: boolean
  summary: string[]
  ask: AskField[]
  /** the page offers Preview (what will change with the values typed, nothing saved) */
  preview: boolean
  /** the rows, for per-row inputs and the list shown (at most 500) */
  rows: Array<{ id: string; label: string }>
  stamp: string
  back: string
  error?: string
}

function viewUrl(url: URL): URL {
  const v = new URL(url)
  for (const k of SELECTION) v.searchParams.delete(k)
  v.searchParams.delete('_data')
  return v
}

/** The ids the selection names, in the organisation: ticked rows, or every row of the view (read a thousand at a time). */
export async function selectedIds(context: LoaderFunctionArgs['context'], view: TableView, url: URL): Promise<string[]> {
  if (url.searchParams.get('pick') === 'all') {
    const ids: string[] = []
    for await (const batch of context.database.store.walk(view.org, view.route.collection!, view.pageQuery, MAX_ACTION_ROWS + 1, 2000)) ids.push(...batch.map((d) => d._id))
    return ids
  }
  return [...new Set(url.searchParams.getAll('sel').filter((x) => x && x.length <= 64))]
}

async function target(request: Request, context: LoaderFunctionArgs['context'], params: LoaderFunctionArgs['params']) {
  const path = `/${params.screen ?? ''}`
  const { s, facility, screen } = await requireScreen(request, context, path)
  const route = screen.route
  if (route.kind !== 'table' || !route.collection || screen.workflows) throw new Response('There is no page at this address.', { status: 404 })
  const url = new URL(request.url)
  const view = await readView(context, route, facility, viewUrl(url), s.user)
  const decl = view.schema?.actions?.find((a) => a.key === params.action) ?? (params.action === BULK_EDIT.key ? BULK_EDIT : undefined)
  const def = decl && rowActionOf(route.collection, decl.key)
  if (!decl || !def) throw new Response('This table has no such action.', { status: 404 })
  if (!view.editable) throw new Response('This table is read-only.', { status: 403 })
  const actor = { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash }
  const ctx = actionContext(context.database.store, view.org, facility, s.user, actor, view.timeZone)
  const back = `${route.path}${listQueryToSearch(view.query, viewUrl(url).searchParams)}`
  return { s, url, view, decl, def, ctx, back, route }
}

function checkCount(decl: RowActionDecl, n: number) {
  if (n === 0) throw badInput('Select at least one row first: tick rows on the table, or "Select all" for every row of the view.')
  if (decl.min && n < decl.min) throw badInput(`${decl.label} takes at least ${decl.min} rows; ${n} selected.`)
  if (decl.max && n > decl.max) throw badInput(decl.max === 1 ? `${decl.label} takes one row at a time; ${n} selected.` : `${decl.label} takes at most ${decl.max} rows; ${n} selected.`)
  if (n > MAX_ACTION_ROWS) throw badInput(`One action takes at most ${MAX_ACTION_ROWS} rows; narrow the view.`)
}

async function page(t: Awaited<ReturnType<typeof target>>, rows: Doc[], input: FormData | URLSearchParams, error?: string): Promise<RowActionPage> {
  const { def, ctx, decl, view, url, back } = t
  const all = url.searchParams.get('pick') === 'all'
  const label = (r: Doc) => def.rowLabel?.(r) ?? r._id
  return {
    kind: 'row-action',
    title: decl.label,
    screen: view.route.path,
    action: decl,
    count: rows.length,
    all,
    summary: await def.describe(ctx, rows, inputOf(input)),
    ask: (await def.ask?.(ctx, rows, inputOf(input))) ?? [],
    preview: !!def.preview,
    rows: rows.slice(0, 500).map((r) => ({ id: r._id, label: label(r) })),
    stamp: stampOf(rows),
    back,
    ...(error ? { error } : {}),
  }
}

async function rowsOf(t: Awaited<ReturnType<typeof target>>, context: LoaderFunctionArgs['context']): Promise<Doc[]> {
  const ids = await selectedIds(context, t.view, t.url)
  checkCount(t.decl, ids.length)
  const rows = await context.database.store.lockRows(context.database.db, t.view.org, t.route.collection!, ids)
  if (!rows.length) throw notFound('None of the selected rows exist in this facility any more.')
  return rows
}

export async function rowActionLoader({ request, context, params }: LoaderFunctionArgs) {
  const t = await target(request, context, params)
  const rows = await rowsOf(t, context).catch(refusedAsPage)
  return json(await page(t, rows, t.url.searchParams))
}

export async function rowActionAction({ request, context, params }: ActionFunctionArgs) {
  const t = await target(request, context, params)
  const form = await request.formData()
  const s: SignedIn['user'] = t.s.user
  // Preview: the page again with what was typed (describe says what would change), nothing saved
  if (form.get('intent') === 'preview' && t.def.preview) {
    try {
      return json(await page(t, await rowsOf(t, context), form))
    } catch (e) {
      if (!isAppError(e)) throw e
      const rows = await rowsOf(t, context).catch(() => [] as Doc[])
      return json({ ...(await page(t, rows, new URLSearchParams(t.url.search)).catch(() => ({ error: e.message }))), error: e.message }, { status: e.status })
    }
  }
  try {
    const ids = await selectedIds(context, t.view, t.url)
    checkCount(t.decl, ids.length)
    // every row of the view: the view must still match as many rows as the page said
    const n = Number(form.get('n'))
    if (t.url.searchParams.get('pick') === 'all' && Number.isInteger(n) && n !== ids.length)
      throw Object.assign(badInput(`The view now matches ${ids.length} rows, not the ${n} this page showed: someone added or changed rows meanwhile. Nothing was changed. Review the page again and confirm.`), { stale: true })
    const message = await runRowAction(t.ctx, { collection: t.route.collection!, key: t.decl.key, ids, stamp: String(form.get('stamp') ?? ''), input: inputOf(form), canEdit: (row) => rowRights(t.view, s, row).canEdit })
    context.logger?.info({ path: t.url.pathname, rows: ids.length, action: t.decl.key }, 'row action done')
    if (t.url.searchParams.has('_data') && form.get('_js') === '1') return json({ done: message, back: t.back })
    const [path, query = ''] = t.back.split('?')
    const back = new URLSearchParams(query)
    back.set('done', message)
    return redirect(`${path}?${back}`)
  } catch (e) {
    if (!isAppError(e)) throw e
    context.logger?.info({ path: t.url.pathname, err: e.message }, 'row action refused')
    // the page again, as the rows are now, with the reason (and what the person typed)
    const rows = await rowsOf(t, context).catch(() => [] as Doc[])
    return json({ ...(await page(t, rows, form, e.message).catch(() => ({ error: e.message }))), error: e.message }, { status: e.status })
  }
}
