/** Secrets at rest (METRC keys): AES-256-GCM with a key derived from SESSION_SECRET. */
import crypto from 'node:crypto'

const keyOf = (secret: string) => crypto.createHash('sha256').update(`canopy seal v1:${secret}`).digest()

export function seal(secret: string, plain: string): string {
  const iv = crypto.randomBytes(12)
  const c = crypto.createCipheriv('aes-256-gcm', keyOf(secret), iv)
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()])
  return `sealed:v1:${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url')}`
}

export function unseal(secret: string, sealed: string): string {
  const raw = Buffer.from(sealed.replace(/^sealed:v1:/, ''), 'base64url')
  const d = crypto.createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12))
  d.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8')
}
