/** A JSON body checked with a zod schema: the first problem becomes a 400 naming its field. */
import type { z } from 'zod'
import { AppError } from '../../utils/errors'
import { readJson } from '../respond.server'
import { issueField, issueLine } from '../../utils/zod-messages'

/** `name`: the field a bare value (a query parameter) stands for. */
export function parsed<T extends z.ZodTypeAny>(schema: T, raw: unknown, name?: string): z.infer<T> {
  const r = schema.safeParse(raw)
  if (r.success) return r.data
  const i = r.error.issues[0]
  const field = i.path.join('.') || name || issueField(i) || undefined
  throw new AppError('BAD_INPUT', issueLine(i, field ?? ''), field ? { field } : undefined)
}

/** Reads a JSON body of at most `max` bytes and checks it. */
export async function bodyOf<T extends z.ZodTypeAny>(request: Request, schema: T, max = 10_000): Promise<z.infer<T>> {
  return parsed(schema, await readJson(request, max))
}
