/**
 * The sign-in rules of SPEC §5 (their messages are in ./messages.ts), shared by the server and the browser.
 */
import { z } from 'zod'

export { FORBIDDEN_PASSWORD_CHARS, PASSWORD_HINT, MSG, CREDENTIAL_STATES, MESSAGE_CODES, messageFor, type MessageCode } from './messages'
import { FORBIDDEN_PASSWORD_CHARS, MSG, PASSWORD_HINT } from './messages'

/** Password as typed at login: required, no forbidden characters, bounded length (a 10 MB password is refused). */
export const loginPassword = z
  .string({ required_error: MSG.required('password') })
  .min(1, MSG.required('password'))
  .max(200, 'Password is too long')
  .refine((v) => !FORBIDDEN_PASSWORD_CHARS.test(v), MSG.forbidden)

/** A new password must also meet the hint. */
export const newPassword = loginPassword.refine(
  (v) => v.length >= 8 && /[a-z]/.test(v) && /[A-Z]/.test(v) && /[0-9]/.test(v) && /[^A-Za-z0-9]/.test(v),
  PASSWORD_HINT,
)

export const email = z
  .string({ required_error: MSG.required('email') })
  .trim()
  .min(1, MSG.required('email'))
  .max(254, 'Email is too long')
  .email('Enter a valid email address')
  .transform((v) => v.toLowerCase())

export const loginSchema = z.object({ email, password: loginPassword })

/** POST /auth/refresh's body (the route parses with it; the OpenAPI document describes it). */
export const refreshBody = z.object({ 'refresh-token': z.string().min(1).max(200) })
