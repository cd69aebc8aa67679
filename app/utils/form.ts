import type { ZodError } from 'zod'
import { issueMessage } from './zod-messages'

/** The first message for each field of a failed parse, keyed by field name (for errors beside their field). */
export function fieldErrors(e: ZodError): Record<string, string> {
  const out: Record<string, string> = {}
  for (const i of e.issues) out[String(i.path[0] ?? '')] ??= issueMessage(i)
  return out
}
