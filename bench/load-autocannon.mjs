/**
 * One load run, in a process of its own (bench/autocannon.ts spawns it), so the load generator shares
 * no event loop with the bench or with a server it measures: autocannon (npm) with `connections`
 * connections sending GET `url` for `seconds`. autocannon's own summary has no p95, so every
 * response's time is kept (its 'response' event) and the percentiles are taken from all of them.
 * Argument: one JSON object { url, headers, connections, seconds }. Prints one JSON line:
 * { ok, failed, why, secs, rps, p50, p95, bytes } (rps: answers with a 2xx status per second; why: the
 * failures by status code, 'errors' and 'timeouts').
 */
import autocannon from 'autocannon'

const { url, headers, connections, seconds } = JSON.parse(process.argv[2])
const lat = []
const why = {}
let bytes = 0
const t0 = performance.now()
const instance = autocannon({ url, headers, connections, duration: seconds, renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false })
instance.on('response', (_client, status, resBytes, ms) => {
  if (status >= 200 && status < 300) {
    lat.push(ms)
    bytes += resBytes
  } else why[status] = (why[status] ?? 0) + 1
})
const result = await instance
const secs = (performance.now() - t0) / 1000
if (result.errors) why.errors = result.errors
if (result.timeouts) why.timeouts = result.timeouts
const failed = Object.values(why).reduce((a, b) => a + b, 0)
lat.sort((a, b) => a - b)
const pct = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.max(0, Math.ceil((p / 100) * lat.length) - 1))] : null)
process.stdout.write(JSON.stringify({ ok: lat.length, failed, why, secs, rps: lat.length / secs, p50: pct(50), p95: pct(95), bytes }) + '\n')
