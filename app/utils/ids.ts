import crypto from 'node:crypto'

/** A 24-hex-digit id in the shape of the `_id`s SPEC clients expect: 4 bytes of seconds, 8 random. */
export function newId(now = Date.now()): string {
  return Math.floor(now / 1000).toString(16).padStart(8, '0') + crypto.randomBytes(8).toString('hex')
}
