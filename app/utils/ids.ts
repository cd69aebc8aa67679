import crypto from 'node:crypto'
import { notFound } from './errors'

/** A 24-hex-digit id in the shape of the `_id`s SPEC clients expect: 4 bytes of seconds, 8 random. */
export function newId(now = Date.now()): string {
  return Math.floor(now / 1000).toString(16).padStart(8, '0') + crypto.randomBytes(8).toString('hex')
}

const ID_RE = /^[A-Za-z0-9_-]{1,64}$/

/** A path id, or 404: no record can have any other shape, so nothing is looked up. */
export function checkId(id: string | undefined): string {
  if (!id || !ID_RE.test(id)) throw notFound('There is no record with that id.')
  return id
}
