/**
 * The embedded broker's packet guard (issue 20 item 3, app/bus/packet-guard.ts): it follows MQTT
 * fixed headers through the bytes as they arrive, however they are split, and refuses a packet
 * whose header announces more than the limit of that moment, or a length of five bytes.
 */
import { EventEmitter } from 'node:events'
import { guardConnection, PacketHeaderReader, SIGN_IN_MAX_BYTES, SIGN_IN_MS } from '#app/bus/packet-guard'

/** an MQTT remaining-length varint */
function varint(n: number): number[] {
  const out: number[] = []
  do {
    let b = n % 128
    n = Math.floor(n / 128)
    if (n > 0) b |= 0x80
    out.push(b)
  } while (n > 0)
  return out
}
/** a whole packet of `type` with a body of `bodyBytes` */
const packet = (type: number, bodyBytes: number) => Buffer.concat([Buffer.from([type, ...varint(bodyBytes)]), Buffer.alloc(bodyBytes, 0x61)])
/** the bytes one at a time */
const bytes = (b: Buffer) => [...b].map((x) => Buffer.from([x]))

describe('PacketHeaderReader', () => {
  it('passes packets within the limit, whole, back to back in one chunk, or one byte at a time', () => {
    const stream = Buffer.concat([packet(0x10, 40), packet(0x30, 0), packet(0x30, 200), packet(0xc0, 0), packet(0x30, 2000)])
    const whole = new PacketHeaderReader(() => 2100)
    expect(whole.feed(stream)).toBeNull()
    const split = new PacketHeaderReader(() => 2100)
    expect(bytes(stream).map((b) => split.feed(b)).every((v) => v === null)).toBe(true)
  })

  it('refuses a header that announces more than the limit, even when its length bytes arrive in separate chunks', () => {
    // a 250 MB CONNECT: 0x10 then four length bytes
    const head = Buffer.from([0x10, ...varint(250 * 1024 * 1024)])
    expect(head.length).toBe(5)
    const r = new PacketHeaderReader(() => SIGN_IN_MAX_BYTES)
    for (const b of bytes(head).slice(0, 4)) expect(r.feed(b)).toBeNull()
    expect(r.feed(head.subarray(4))).toEqual({ reason: 'too-large', bytes: 5 + 250 * 1024 * 1024, limit: SIGN_IN_MAX_BYTES })
    // refused for good: whatever comes next
    expect(r.feed(packet(0x30, 1))).toMatchObject({ reason: 'too-large' })
  })

  it('counts the whole packet against the limit: header bytes included', () => {
    expect(new PacketHeaderReader(() => 102).feed(packet(0x30, 100))).toBeNull() // 1 + 1 + 100
    expect(new PacketHeaderReader(() => 101).feed(packet(0x30, 100))).toEqual({ reason: 'too-large', bytes: 102, limit: 101 })
  })

  it('asks for the limit at every packet, so a limit that grows applies from the next packet', () => {
    let limit = 100
    const asked: number[] = []
    const r = new PacketHeaderReader(() => (asked.push(limit), limit))
    expect(r.feed(packet(0x10, 50))).toBeNull()
    limit = 10_000
    expect(r.feed(packet(0x30, 5000))).toBeNull()
    expect(r.feed(Buffer.concat([packet(0x30, 3), packet(0x30, 0)]))).toBeNull()
    expect(asked).toEqual([100, 10_000, 10_000, 10_000])
    limit = 100
    // a body split over chunks is skipped, not mistaken for headers
    const big = packet(0x30, 90)
    expect(r.feed(big.subarray(0, 10))).toBeNull()
    expect(r.feed(big.subarray(10))).toBeNull()
    expect(r.feed(packet(0x30, 200))).toMatchObject({ reason: 'too-large', limit: 100 })
  })

  it('refuses a remaining length of five bytes as malformed, whole or split', () => {
    const five = Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01])
    expect(new PacketHeaderReader(() => Number.MAX_SAFE_INTEGER).feed(five)).toEqual({ reason: 'malformed' })
    const r = new PacketHeaderReader(() => Number.MAX_SAFE_INTEGER)
    const results = bytes(five).map((b) => r.feed(b))
    expect(results.slice(0, 4)).toEqual([null, null, null, null])
    expect(results[4]).toEqual({ reason: 'malformed' })
    // the largest legal length (four bytes) is a length, not malformed
    expect(new PacketHeaderReader(() => 1).feed(Buffer.from([0x30, 0xff, 0xff, 0xff, 0x7f]))).toEqual({ reason: 'too-large', bytes: 5 + 268_435_455, limit: 1 })
  })
})

/** a stand-in for a socket: read() hands out what was queued; destroy() closes it */
class FakeStream extends EventEmitter {
  queued: Buffer[] = []
  destroyed = false
  read() {
    return this.queued.shift() ?? null
  }
  destroy() {
    if (this.destroyed) return
    this.destroyed = true
    this.emit('close')
  }
}

describe('guardConnection', () => {
  afterEach(() => vi.useRealTimers())

  it('holds packets to 16 KiB before sign-in and to the configured size after; a refused chunk never reaches the reader', () => {
    const s = new FakeStream()
    const refused: unknown[] = []
    const g = guardConnection(s, { maxBytes: 256 * 1024, onRefused: (r) => refused.push(r) })
    s.queued.push(packet(0x10, 1000))
    expect(s.read()).not.toBeNull()
    g.signedIn()
    s.queued.push(packet(0x30, 100 * 1024))
    expect(s.read()).not.toBeNull()
    s.queued.push(packet(0x30, 300 * 1024))
    expect(s.read()).toBeNull()
    expect(s.destroyed).toBe(true)
    expect(refused).toEqual([{ reason: 'too-large', bytes: 1 + 3 + 300 * 1024, limit: 256 * 1024 }])

    const early = new FakeStream()
    guardConnection(early, { maxBytes: 256 * 1024, onRefused: (r) => refused.push(r) })
    early.queued.push(packet(0x10, 20 * 1024))
    expect(early.read()).toBeNull()
    expect(early.destroyed).toBe(true)
    expect(refused[1]).toMatchObject({ reason: 'too-large', limit: SIGN_IN_MAX_BYTES })
  })

  it('closes a connection that has not signed in within 10 s, and leaves one that has', () => {
    vi.useFakeTimers()
    const refused: unknown[] = []
    const idle = new FakeStream()
    guardConnection(idle, { maxBytes: 1024 * 1024, onRefused: (r) => refused.push(r) })
    const signed = new FakeStream()
    guardConnection(signed, { maxBytes: 1024 * 1024, onRefused: (r) => refused.push(r) }).signedIn()
    vi.advanceTimersByTime(SIGN_IN_MS - 1)
    expect(idle.destroyed).toBe(false)
    vi.advanceTimersByTime(1)
    expect(idle.destroyed).toBe(true)
    expect(signed.destroyed).toBe(false)
    expect(refused).toEqual([{ reason: 'sign-in-timeout', ms: SIGN_IN_MS }])
  })
})
