/**
 * An SSE client for the bench's event scenarios (bus, relay): opens `GET /events` with the given
 * headers, calls `onFrame` with each frame's text and its arrival time, and resolves once the
 * server's `ready` event has come (the stream is then subscribed).
 */
import http from 'node:http'

export function openEventStream(base: string, headers: Record<string, string>, onFrame: (frame: string, at: number) => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/events`, { headers: { ...headers, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${base}/events answered ${res.statusCode}`))
      let buf = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        buf += chunk
        let i: number
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, i)
          buf = buf.slice(i + 2)
          onFrame(frame, performance.now())
          if (frame.includes('event: ready')) resolve(req)
        }
      })
    })
    req.on('error', reject)
  })
}
