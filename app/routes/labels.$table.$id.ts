/**
 * GET /labels/{table}/{id}?template=&format=zpl|pdf|svg&device=: one record's label
 * (app/labels/): ZPL for Zebra printers, PDF for everything else, SVG for the browser's preview.
 * Format: as asked; without one, the printer's (ZPL when it is a ZPL printer, else PDF).
 * Callers: app/labels/auth.server.ts (session or x-access-token). Refusals: the JSON envelope for
 * an API client, a short text for a browser: 400 bad template or format, 401, 403 a table the
 * user's screens do not show, 404 no such table or record (another organisation's included).
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { apiError } from '../api/respond.server'
import { labelCaller } from '../labels/auth.server'
import { LABEL_FORMATS, renderRecordLabel, type LabelFormatName } from '../labels/record-label.server'
import { isAppError, STATUS_OF, type ErrorCode } from '../utils/errors'

const text = (status: number, body: string) => new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const q = url.searchParams
  const fail = (code: ErrorCode, message: string) => (request.headers.get('x-access-token') ? apiError(code, message) : text(STATUS_OF[code], message))
  try {
    const caller = await labelCaller(request, context)
    const asked = q.get('format')
    if (asked !== null && !(LABEL_FORMATS as readonly string[]).includes(asked)) return fail('BAD_INPUT', `format must be one of ${LABEL_FORMATS.join(', ')}.`)
    const req = { table: params.table ?? '', id: params.id ?? '', template: q.get('template'), device: q.get('device'), baseUrl: url.origin }
    const out = await renderRecordLabel(context, caller, req, asked as LabelFormatName | null)
    return new Response(out.body, {
      headers: {
        'Content-Type': out.contentType,
        'Content-Disposition': `inline; filename="${out.filename}"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        // the SVG carries record text: never let anything in it run in our origin
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      },
    })
  } catch (e) {
    if (isAppError(e)) return fail(e.code, e.message)
    context.logger.error({ err: e, table: params.table, id: params.id }, 'label failed')
    return fail('UNAVAILABLE', 'The label could not be made; try again later.')
  }
}
