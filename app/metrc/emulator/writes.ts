/**
 * Runs one write (reference §4.7): the body is a JSON array of at most 10 objects (413 over);
 * every row is read with its family's zod schema, then checked against METRC's rules; all row
 * errors come back together as `[{row, message}]` (400) and only a wholly valid body changes
 * anything. Answers v2's WriteResponse: the new or touched records' Ids.
 */
import type { ZodIssue } from 'zod'
import { WRITES } from './endpoints'
import type { WriteContext } from './endpoints/kit'
import { Refusal } from './refusal'
import { MAX_WRITE_OBJECTS } from './rules'

export type { WriteContext }
export const WRITE_PATHS = Object.keys(WRITES)

export function hasWrite(method: string, path: string): boolean {
  return `${method} ${path}` in WRITES
}

/** a zod issue as a METRC-like row message: "Count is required.", "Quantity must be more than 0." */
export function issueMessage(i: ZodIssue): string {
  const field = i.path.join('.') || 'The row'
  if (i.code === 'invalid_type' && i.received === 'undefined') return `${field} is required.`
  if (i.code === 'invalid_type' && /^Expected /.test(i.message)) return `${field} must be ${i.expected === 'number' ? 'a number' : i.expected === 'string' ? 'text' : i.expected}.`
  if (i.code === 'invalid_enum_value') return `${field} must be one of ${i.options.join(', ')}.`
  const m = i.message.replace(/\.$/, '')
  return /^(is|must) /.test(m) ? `${field} ${m}.` : `${field}: ${m}.`
}

/** Gate (403) when the license type cannot; otherwise every row or a Refusal. */
export function runWrite(method: string, path: string, body: unknown, ctx: WriteContext): { Ids: number[]; Warnings: null } {
  const op = WRITES[`${method} ${path}`]
  op.gate?.(ctx.license)
  if (!Array.isArray(body)) throw new Refusal(400, 'The request body must be a JSON array of objects.', [{ row: 0, message: 'The request body must be a JSON array of objects.' }])
  if (body.length === 0) throw new Refusal(400, 'The request body is empty.', [{ row: 0, message: 'The request body is empty.' }])
  if (body.length > MAX_WRITE_OBJECTS) throw new Refusal(413, `At most ${MAX_WRITE_OBJECTS} objects may be sent in one request; this one has ${body.length}.`)
  const rows: Array<{ row: number; message: string }> = []
  const earlier: never[] = []
  const parsed: never[] = []
  body.forEach((raw, i) => {
    const p = op.schema.safeParse(raw)
    if (!p.success) {
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return rows.push({ row: i, message: 'Each row must be a JSON object.' })
      for (const issue of p.error.issues) rows.push({ row: i, message: issueMessage(issue) })
      return
    }
    op.check(p.data, (message) => rows.push({ row: i, message }), ctx, earlier)
    earlier.push(p.data)
    parsed.push(p.data)
  })
  if (rows.length) throw new Refusal(400, rows.map((r) => r.message).join(' '), rows)
  return { Ids: parsed.map((o) => op.apply(o, ctx)), Warnings: null }
}
