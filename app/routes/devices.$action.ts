/**
 * POST /devices/{scale|scan|print|record}: the edit form's device buttons (SPEC §2.6, §4). JSON or form
 * body { screen, field } for a reading or a scan, { screen, id, printer? } for a print. `record`
 * { screen }: the table screen's Scan (SPEC §3 `id:prt` / `id:more`, devices/scan-record.server.ts):
 * answers { code, id, then, printer | href }; a form post without JavaScript is redirected to the
 * record (`more`) or back to the table (`prt`). The
 * session's user must be entitled to the screen, and able to edit its table for a reading or a
 * scan. Answers { weight, unit, device } · { code } · { printer }, or the JSON error envelope
 * (DEVICE_TIMEOUT 504 says why the device did not answer). The wait ends early when the browser
 * gives up (request aborted).
 */
import type { ActionFunctionArgs } from '@remix-run/node'
import { api, apiError } from '../api/respond.server'
import { requireSession } from '../auth/require.server'
import { fieldDevices, printersFor } from '../devices/lookup.server'
import { readWeight, requestPrint, scanCode } from '../devices/flows.server'
import { scanToRecord } from '../devices/scan-record.server'
import { tableAccess } from '../records/access.server'
import { editTarget } from '../screens/record-edit.server'
import { AppError, statusOf } from '../utils/errors'

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
function reasonPage(e: AppError, back: string): Response {
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Scan</title><main style="font:18px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem"><h1>Scan</h1><p role="alert">${escape(e.message)}</p><p><a href="${escape(back)}">Back to the table</a></p></main></html>`
  return new Response(html, { status: statusOf(e), headers: { 'Content-Type': 'text/html; charset=utf-8' } })
}

const ACTIONS = new Set(['scale', 'scan', 'print', 'record'])

async function bodyOf(request: Request): Promise<Record<string, string>> {
  const type = request.headers.get('content-type') ?? ''
  if (type.includes('application/json')) {
    const text = await request.text()
    if (text.length > 4096) throw new AppError('TOO_LARGE', 'A device request is a few fields only.')
    try {
      const v = JSON.parse(text) as unknown
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error()
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : '']))
    } catch {
      throw new AppError('BAD_INPUT', 'The request body is not a JSON object.')
    }
  }
  const form = await request.formData()
  return Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']))
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const what = params.action ?? ''
  if (!ACTIONS.has(what)) return apiError('NOT_FOUND', 'There is no such device action (scale, scan, print, record).')
  return api(async () => {
    const s = await requireSession(request, context)
    const body = await bodyOf(request)
    const screen = body.screen ?? ''
    if (!screen.startsWith('/') || screen.length > 100) throw new AppError('BAD_INPUT', 'screen: the screen address the form belongs to, e.g. /culPlants', { field: 'screen' })
    const { route, facility } = await editTarget(context, s, screen)
    const access = await tableAccess(context, s.user, facility, route.collection!, route)
    // scanning uses the original user while a super acts as someone (SPEC §6): the scan topics are theirs
    const uid = s.session.orig_uid || s.user.uid
    if (what === 'print') {
      const id = body.id ?? ''
      if (!id || id.length > 100) throw new AppError('BAD_INPUT', 'id: the record to print', { field: 'id' })
      if (!(await context.database.store.get(access.org, access.collection, id))) throw new AppError('NOT_FOUND', 'There is no such record in this facility.')
      const printers = await printersFor(context, access.org, access.schema)
      const p = body.printer ? printers.find((x) => x.id === body.printer) : printers[0]
      if (!p) throw new AppError('NOT_FOUND', 'No label printer is set up for this table. An admin can add one under Settings → Printers.')
      requestPrint(context, access.org, p, access.collection, id, new URL(request.url).origin)
      return Response.json({ printer: p.name })
    }
    if (what === 'record') {
      const isForm = !(request.headers.get('content-type') ?? '').includes('application/json')
      try {
        const r = await scanToRecord(context, access, route.path, uid, new URL(request.url).origin, request.signal)
        if (isForm) return new Response(null, { status: 303, headers: { Location: r.then === 'more' ? r.href : route.path } })
        return Response.json(r)
      } catch (e) {
        // without JavaScript the person reads a page, not the JSON envelope: the reason and the way back
        if (isForm && e instanceof AppError) return reasonPage(e, route.path)
        throw e
      }
    }
    if (!access.editable) throw new AppError('FORBIDDEN', 'This table is read-only for your account.')
    const field = body.field ?? ''
    const devices = (await fieldDevices(context, access.org, access.collection, access.schema))[field] ?? []
    const d = devices.find((x) => x.kind === (what === 'scale' ? 'scale' : 'rfid'))
    if (!d) throw new AppError('NOT_FOUND', `No ${what === 'scale' ? 'scale' : 'scanner'} is set up for this field.`, { field: 'field' })
    if (what === 'scale') return Response.json(await readWeight(context, access.org, uid, d, request.signal))
    return Response.json(await scanCode(context, access.org, uid, d, request.signal))
  }, context.logger)
}

export function loader() {
  return apiError('NOT_ALLOWED', 'Device requests are POSTs.', { headers: { Allow: 'POST' } })
}
