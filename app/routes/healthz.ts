/** Liveness: the process is up and serving. */
export const loader = () => Response.json({ status: 'up' }, { headers: { 'Cache-Control': 'no-store' } })
