import type { LoaderFunctionArgs } from '@remix-run/node'

/**
 * Readiness: the database answers and, when a message bus is configured (the embedded broker or MQTT_URL),
 * the bus is connected: devices and live updates depend on it, so a load balancer or `docker compose`
 * must not call the server ready while it is down (issue 28). A bus still connecting gets a moment.
 */
const BUS_GRACE_MS = 2_000

export async function loader({ context }: LoaderFunctionArgs) {
  const started = Date.now()
  const headers = { 'Cache-Control': 'no-store' }
  const kind = context.database.db.kind
  try {
    await context.database.db.query('SELECT 1')
  } catch (e) {
    context.logger.error({ err: e }, 'readiness check failed')
    return Response.json({ status: 'unavailable', database: kind, reason: 'the database does not answer' }, { status: 503, headers })
  }
  const bus = context.bus
  if (bus && bus.state === 'connecting') await bus.ready(BUS_GRACE_MS).catch(() => undefined)
  if (bus && bus.state !== 'connected') {
    return Response.json({ status: 'unavailable', database: kind, bus: bus.state, reason: 'the message bus is not connected' }, { status: 503, headers })
  }
  return Response.json({ status: 'ready', database: kind, bus: bus?.state ?? 'none', ms: Date.now() - started }, { headers })
}
