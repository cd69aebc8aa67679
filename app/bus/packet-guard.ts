/**
 * The embedded broker's packet limits (issue 20 item 3). Aedes' parser keeps a packet in memory
 * until it is whole, so a client that announces a 250 MB CONNECT gets 250 MB buffered before it
 * has even signed in. The guard sits in front of Aedes' read: it follows each packet's fixed
 * header (a type byte, then the remaining length: 1–4 bytes of 7 bits each, the high bit saying
 * another follows; a header may be split across TCP chunks) and closes the connection as soon as a
 * header announces a packet larger than the limit, before any of its body is kept. The limit is
 * asked for at every packet, so it can grow once the client has signed in. A fifth length byte is
 * malformed MQTT: closed too. Pure apart from `guardStream`, which hooks one stream's `read`.
 */

/** the largest packet a client may send before it has signed in (a CONNECT: a client id, a username, a key or token, a will) */
export const SIGN_IN_MAX_BYTES = 16 * 1024
/** the largest packet a signed-in client may send unless MQTT_MAX_PACKET_BYTES says otherwise */
export const MAX_PACKET_BYTES = 256 * 1024
/** how long a new connection has to sign in */
export const SIGN_IN_MS = 10_000

export type Refusal = { reason: 'too-large'; bytes: number; limit: number } | { reason: 'malformed' }

/** Follows MQTT fixed headers through a byte stream; `feed` answers the first refusal, then keeps answering it. */
export class PacketHeaderReader {
  private state: 'type' | 'length' | 'body' = 'type'
  private length = 0
  private lengthBytes = 0
  private left = 0
  private refused: Refusal | null = null

  /** `limit`: the largest whole packet (header included) allowed, asked for each packet as its header completes */
  constructor(private readonly limit: () => number) {}

  feed(chunk: Uint8Array): Refusal | null {
    if (this.refused) return this.refused
    let i = 0
    while (i < chunk.length) {
      if (this.state === 'body') {
        const n = Math.min(this.left, chunk.length - i)
        this.left -= n
        i += n
        if (this.left === 0) this.state = 'type'
      } else if (this.state === 'type') {
        i++
        this.state = 'length'
        this.length = 0
        this.lengthBytes = 0
      } else {
        const b = chunk[i++]
        this.length += (b & 0x7f) * 128 ** this.lengthBytes
        this.lengthBytes++
        if (b & 0x80) {
          if (this.lengthBytes === 4) return (this.refused = { reason: 'malformed' })
          continue
        }
        const bytes = 1 + this.lengthBytes + this.length
        const limit = this.limit()
        if (bytes > limit) return (this.refused = { reason: 'too-large', bytes, limit })
        this.left = this.length
        this.state = this.left ? 'body' : 'type'
      }
    }
    return null
  }
}

interface ReadableLike {
  read(size?: number): unknown
  destroy(error?: Error): unknown
}

/**
 * Puts a reader in front of `stream.read` (what Aedes calls for every batch of bytes): each
 * chunk passes through it before the parser sees it; on a refusal the stream is destroyed and the
 * chunk never reaches the parser.
 */
export function guardStream(stream: ReadableLike, limit: () => number, onRefused: (r: Refusal) => void): void {
  const reader = new PacketHeaderReader(limit)
  const read = stream.read.bind(stream)
  stream.read = (size?: number) => {
    const chunk = read(size)
    if (!chunk || !(chunk instanceof Uint8Array)) return chunk
    const refused = reader.feed(chunk)
    if (!refused) return chunk
    onRefused(refused)
    stream.destroy()
    return null
  }
}

interface ConnectionLike extends ReadableLike {
  once(event: 'close', listener: () => void): unknown
}

/**
 * Guards one client connection of the broker: packets up to SIGN_IN_MAX_BYTES until `signedIn()`
 * is called, `maxBytes` after; a connection that has not signed in after `signInMs` is closed.
 */
export function guardConnection(
  stream: ConnectionLike,
  o: { maxBytes: number; signInMs?: number; onRefused: (r: Refusal | { reason: 'sign-in-timeout'; ms: number }) => void },
): { signedIn: () => void } {
  let signed = false
  const ms = o.signInMs ?? SIGN_IN_MS
  const timer = setTimeout(() => {
    if (signed) return
    o.onRefused({ reason: 'sign-in-timeout', ms })
    stream.destroy()
  }, ms)
  timer.unref?.()
  stream.once('close', () => clearTimeout(timer))
  guardStream(stream, () => (signed ? o.maxBytes : Math.min(SIGN_IN_MAX_BYTES, o.maxBytes)), o.onRefused)
  return {
    signedIn: () => {
      signed = true
      clearTimeout(timer)
    },
  }
}
