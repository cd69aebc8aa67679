/**
 * Password hashing with scrypt (memory-hard; N=2^15, r=8 ≈ 32 MiB and ~100 ms here).
 * Stored as scrypt$N$r$p$salt$hash so parameters can be raised later without breaking old hashes.
 */
import crypto from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>
const PARAMS = { N: 2 ** 15, r: 8, p: 1 }
const KEYLEN = 32

export async function hashPassword(password: string, params = PARAMS): Promise<string> {
  const salt = crypto.randomBytes(16)
  const key = await scrypt(password, salt, KEYLEN, { ...params, maxmem: 128 * params.N * params.r * 2 })
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split('$')
  if (alg !== 'scrypt' || !salt || !key) return false
  const N = Number(n)
  const want = Buffer.from(key, 'base64url')
  const got = await scrypt(password, Buffer.from(salt, 'base64url'), want.length, { N, r: Number(r), p: Number(p), maxmem: 128 * N * Number(r) * 2 })
  return crypto.timingSafeEqual(want, got)
}
