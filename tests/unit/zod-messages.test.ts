/** Validator text a person reads (issue 32 item 13): the schema's own words, else plain ones — never zod's English. */
import { z } from 'zod'
import { parseListQuery } from '#app/screens/table-query'
import { issueLine, issueMessage, plainErrorMap } from '#app/utils/zod-messages'

const firstIssue = (schema: z.ZodTypeAny, v: unknown) => {
  const r = schema.safeParse(v)
  if (r.success) throw new Error('expected a failure')
  return r.error.issues[0]
}
const ZOD_ENGLISH = /Expected|received|Invalid enum|Invalid input|Required|String must/

describe('zod messages', () => {
  it('says "enter a number" for a value that is not one', () => {
    expect(issueLine(firstIssue(z.coerce.number(), 'abc'), 'Dead Weight')).toBe('Dead Weight: enter a number')
  })

  it('lists the choices of an enum', () => {
    expect(issueLine(firstIssue(z.enum(['Vegetative', 'Flowering', 'Harvested']), 'x'), 'Phase')).toBe('Phase: choose one of Vegetative, Flowering, Harvested')
    const many = z.enum(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'])
    expect(issueMessage(firstIssue(many, 'z'))).toBe('choose one of a, b, c, d, e, f, g, h, …')
  })

  it('keeps a message the schema set itself', () => {
    expect(issueMessage(firstIssue(z.string().min(3, 'Say why (at least 3 characters).'), 'x'))).toBe('Say why (at least 3 characters).')
    expect(issueMessage(firstIssue(z.number({ invalid_type_error: 'is not a page number' }), 'x'))).toBe('is not a page number')
  })

  it('names the field from the path, and unknown keys', () => {
    expect(issueLine(firstIssue(z.object({ light: z.enum(['yes', 'no']) }), { light: 'maybe' }))).toBe('light: choose one of yes, no')
    expect(issueLine(firstIssue(z.object({}).strict(), { colour: 1 }))).toBe('Is not a field here: colour')
    expect(issueLine(firstIssue(z.object({ uid: z.string() }), {}))).toBe('uid: fill this in')
  })

  it('words sizes, strings and literals plainly', () => {
    expect(issueMessage(firstIssue(z.string().max(3), 'abcdef'))).toBe('use at most 3 characters')
    expect(issueMessage(firstIssue(z.string().min(1), ''))).toBe('fill this in')
    expect(issueMessage(firstIssue(z.number().min(1), 0))).toBe('enter 1 or more')
    expect(issueMessage(firstIssue(z.number().int(), 1.5))).toBe('enter a whole number')
    expect(issueMessage(firstIssue(z.string().email(), 'x'))).toBe('enter an email address')
    expect(issueMessage(firstIssue(z.array(z.string()).min(1), []))).toBe('give at least 1')
    expect(issueMessage(firstIssue(z.literal('approve'), 'x'))).toBe('must be approve')
    expect(issueMessage(firstIssue(z.discriminatedUnion('intent', [z.object({ intent: z.literal('a') }), z.object({ intent: z.literal('b') })]), { intent: 'c' }))).toBe('choose one of a, b')
  })

  it('gives an errorMap in plain words', () => {
    const r = z.number({ errorMap: plainErrorMap }).safeParse(NaN)
    expect(r.success ? '' : r.error.issues[0].message).toBe('enter a number')
  })

  it('keeps zod English out of the table URL notices', () => {
    const { notices } = parseListQuery(new URLSearchParams('page=abc&dir=up&range=someday&all=2'))
    expect(notices).toHaveLength(4)
    for (const n of notices) expect(n).not.toMatch(ZOD_ENGLISH)
    expect(notices).toContain('Ignored dir="up": choose one of asc, desc.')
    expect(notices).toContain('Ignored page="abc": enter a number.')
  })
})
