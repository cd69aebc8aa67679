/**
 * The load of the api scenario's throughput rows (bench/api.ts), in a worker thread so the clients
 * do not share an event loop with the server they measure (Canopy's runs on the main thread, a
 * peer in its own process): `clients` loops, each sending GET `url` one after another until
 * `seconds` have passed. Posts { lat: ms per request, failed, secs, first } back.
 */
import { parentPort, workerData } from 'node:worker_threads'

const { url, headers, clients, seconds } = workerData
const lat = []
let failed = 0
let first = null
const stop = Date.now() + seconds * 1000
const t0 = performance.now()
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (Date.now() < stop) {
      const t = performance.now()
      try {
        const r = await fetch(url, { headers })
        const body = await r.text()
        if (r.status !== 200) failed++
        else if (first === null) first = body
      } catch {
        failed++
      }
      lat.push(performance.now() - t)
    }
  }),
)
parentPort.postMessage({ lat, failed, secs: (performance.now() - t0) / 1000, first })
