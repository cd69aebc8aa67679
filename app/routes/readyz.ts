import type { LoaderFunctionArgs } from '@remix-run/node'

/** Readiness: the database answers. The message bus is reported, not required: without it the console works, devices wait. */
export async function loader({ context }: LoaderFunctionArgs) {
  const started = Date.now()
  try {
    await context.database.db.query('SELECT 1')
    return Response.json({ status: 'ready', database: context.database.db.kind, bus: context.bus?.state ?? 'none', ms: Date.now() - started }, { headers: { 'Cache-Control': 'no-store' } })
  } catch (e) {
    context.logger.error({ err: e }, 'readiness check failed')
    return Response.json({ status: 'unavailable', database: context.database.db.kind }, { status: 503, headers: { 'Cache-Control': 'no-store' } })
  }
}
