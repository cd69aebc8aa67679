/**
 * What a person reads when a zod check fails (issue 32 item 13). zod's own English ("Expected
 * number, received nan", "Invalid enum value. Expected 'a' | 'b'…") is never shown: a message the
 * schema set itself is kept, anything else is said in plain words ("choose one of asc, desc",
 * "enter a number"). Every place that turns a failed parse into a notice, an API error or an
 * error beside a field goes through here. Shared by server and browser: no server imports.
 */
import { z, type ZodIssue, type ZodIssueOptionalMessage } from 'zod'

const MAX_OPTIONS = 8

function options(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_OPTIONS).map(String)
  return values.length > MAX_OPTIONS ? `${shown.join(', ')}, …` : shown.join(', ')
}

const KIND: Record<string, string> = {
  number: 'enter a number',
  integer: 'enter a whole number',
  bigint: 'enter a whole number',
  string: 'enter text',
  boolean: 'enter yes or no',
  date: 'enter a date',
  array: 'give a list',
  object: 'give a set of named fields',
}

const count = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`

function tooSmall(i: Extract<ZodIssueOptionalMessage, { code: 'too_small' }>): string {
  const m = i.minimum
  if (i.type === 'string') return Number(m) <= 1 ? 'fill this in' : `use at least ${count(m, 'character', 'characters')}`
  if (i.type === 'array' || i.type === 'set') return `give at least ${m}`
  if (i.type === 'date') return `enter a date on or after ${new Date(Number(m)).toISOString().slice(0, 10)}`
  return i.inclusive ? `enter ${m} or more` : `enter more than ${m}`
}

function tooBig(i: Extract<ZodIssueOptionalMessage, { code: 'too_big' }>): string {
  const m = i.maximum
  if (i.type === 'string') return `use at most ${count(m, 'character', 'characters')}`
  if (i.type === 'array' || i.type === 'set') return `give at most ${m}`
  if (i.type === 'date') return `enter a date on or before ${new Date(Number(m)).toISOString().slice(0, 10)}`
  return i.inclusive ? `enter ${m} or less` : `enter less than ${m}`
}

/** Plain words for an issue, whatever message it carries: a fragment such as "choose one of asc, desc". */
export function plainIssue(i: ZodIssueOptionalMessage): string {
  switch (i.code) {
    case 'invalid_type':
      if (i.received === 'undefined' || i.received === 'null') return 'fill this in'
      return KIND[i.expected] ?? 'is not the right kind of value'
    case 'invalid_enum_value':
      return `choose one of ${options(i.options)}`
    case 'invalid_union_discriminator':
      return `choose one of ${options(i.options)}`
    case 'invalid_literal':
      return `must be ${String(i.expected)}`
    case 'unrecognized_keys':
      return `${i.keys.length === 1 ? 'is not a field here' : 'are not fields here'}: ${options(i.keys)}`
    case 'too_small':
      return tooSmall(i)
    case 'too_big':
      return tooBig(i)
    case 'invalid_string':
      if (i.validation === 'email') return 'enter an email address'
      if (i.validation === 'url') return 'enter a web address'
      if (i.validation === 'datetime' || i.validation === 'date') return 'enter a date'
      if (i.validation === 'time') return 'enter a time'
      return 'is not in the expected form'
    case 'invalid_date':
      return 'enter a date'
    case 'not_multiple_of':
      return `enter a multiple of ${i.multipleOf}`
    case 'not_finite':
      return 'enter a number'
    default:
      return 'is not understood'
  }
}

/** zod's default English for the issue: what it says when the schema set no message of its own. */
function zodDefault(i: ZodIssue): string {
  return z.defaultErrorMap(i, { defaultError: 'Invalid input', data: undefined }).message
}

/** The issue's message for a person: the schema's own words when it set some, else plain words. */
export function issueMessage(i: ZodIssue): string {
  return i.message && i.message !== zodDefault(i) ? i.message : plainIssue(i)
}

/** The field an issue is about, as "a.0.b"; for unknown keys the first key. */
export function issueField(i: ZodIssue): string {
  return i.path.join('.') || (i.code === 'unrecognized_keys' ? (i.keys[0] ?? '') : '')
}

/** "Label: message" (the label defaults to the issue's field), or the message alone when there is neither. */
export function issueLine(i: ZodIssue, label?: string): string {
  const name = label ?? (i.code === 'unrecognized_keys' && !i.path.length ? '' : i.path.join('.'))
  const msg = issueMessage(i)
  return name ? `${name}: ${msg}` : msg.charAt(0).toUpperCase() + msg.slice(1)
}

/** For a schema's errorMap: plain words for every issue it does not word itself. */
export const plainErrorMap: z.ZodErrorMap = (issue) => ({ message: plainIssue(issue) })
