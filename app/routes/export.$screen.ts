/**
 * GET /export/{screen}?{view}: the table screen's current view — every page, the same
 * filters, sort and visible columns — as a CSV download. (One segment: a screen's path is one, and a
 * named parameter outranks the record page's /{screen}/{id}, which a splat here did not.) Cells read as they do on screen
 * (dates in the facility's time zone, referenced records by their label). Up to 100,000 rows.
 */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireSession } from '../auth/require.server'
import { resolveScreen } from '../auth/screens.server'
import { formatCell } from '../format/format'
import { csvLine } from '../screens/csv'
import { readView } from '../screens/table-page.server'

export const EXPORT_MAX_ROWS = 100_000

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const s = await requireSession(request, context)
  const facility = s.session.facility ?? ''
  const path = `/${params.screen ?? ''}`
  const screen = await resolveScreen(context.database, s.user, facility, path)
  if (screen === 'unknown' || (screen !== 'forbidden' && (screen.route.kind !== 'table' || !screen.route.collection || screen.workflows))) {
    return new Response('There is no table to export at this address.', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  }
  if (screen === 'forbidden') return new Response('Your account is not entitled to this table in this facility.', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  const route = screen.route
  const view = await readView(context, route, facility, url)
  const cols = view.columns.filter((c) => c.visible)
  const text = (d: Record<string, unknown> & { _labels?: Record<string, string | null> }, key: string, format: string) => {
    if (format.startsWith('id:')) return d._labels?.[key] ?? (d[key] == null ? '' : String(d[key]))
    if (format === 'trim' || format === 'qrcode' || format === 'image' || format === 'pdf') return d[key] == null ? '' : String(d[key])
    return formatCell(d[key], format, { timeZone: view.timeZone })
  }
  const enc = new TextEncoder()
  const rows = view.schema ? context.database.store.walk(view.org, route.collection!, view.pageQuery, EXPORT_MAX_ROWS) : null
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      // a byte-order mark so spreadsheet programs read the text as UTF-8
      c.enqueue(enc.encode(`\uFEFF${csvLine(cols.map((x) => x.label))}`))
    },
    async pull(c) {
      try {
        const next = rows ? await rows.next() : { done: true as const, value: undefined }
        if (next.done) return c.close()
        c.enqueue(enc.encode(next.value.map((d) => csvLine(cols.map((x) => text(d, x.key, x.format)))).join('')))
      } catch (e) {
        context.logger.error({ err: e, path }, 'csv export failed')
        c.error(e)
      }
    },
  })
  const day = new Date().toISOString().slice(0, 10)
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${route.collection}-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  })
}
