/**
 * SPEC §5 password rule, each part on its own: required; none of " ' ? & / < > or whitespace
 * (login and new passwords); a new password needs at least 8 characters with a lower-case letter,
 * an upper-case letter, a numeral and a special character. Each weak case misses exactly one part
 * of a password that otherwise passes, so a rule that stops checking that part fails here.
 */
import { loginPassword, MSG, newPassword, PASSWORD_HINT } from '#app/auth/rules'

const messages = (schema: typeof loginPassword | typeof newPassword, v: unknown) => {
  const r = schema.safeParse(v)
  return r.success ? [] : r.error.issues.map((i) => i.message)
}

describe('a new password (SPEC §5)', () => {
  it('passes when it has every part; exactly 8 characters is enough', () => {
    for (const ok of ['Fresh#Pass9', 'aB3$efgh', 'Zz9!Zz9!Zz9!', 'pä#S5wörd']) expect(messages(newPassword, ok), ok).toEqual([])
  })

  it.each([
    ['7 characters, every kind present', 'aB3$efg'],
    ['no lower-case letter', 'FRESH#PASS9'],
    ['no upper-case letter', 'fresh#pass9'],
    ['no numeral', 'Fresh#Passx'],
    ['no special character', 'FreshPass99'],
  ])('is refused with the rule when it has %s', (_, weak) => {
    expect(messages(newPassword, weak)).toEqual([PASSWORD_HINT])
  })

  it('is required', () => {
    expect(messages(newPassword, '')).toContain(MSG.required('password'))
    expect(messages(newPassword, undefined)).toEqual([MSG.required('password')])
  })
})

describe('forbidden characters (SPEC §5), at login and in a new password', () => {
  it.each(['"', "'", '?', '&', '/', '<', '>', ' ', '\t', '\n'])('refuses %j anywhere, with the forbidden-characters message', (c) => {
    for (const pw of [`Fresh#Pass9${c}`, `${c}Fresh#Pass9`, `Fresh${c}#Pass9`]) {
      expect(messages(loginPassword, pw), JSON.stringify(pw)).toEqual([MSG.forbidden])
      expect(messages(newPassword, pw), JSON.stringify(pw)).toContain(MSG.forbidden)
    }
  })

  it('takes every other special character', () => {
    for (const c of '!#$%()*+,-.:;=@[\\]^_`{|}~') expect(messages(newPassword, `Fresh${c}Pass9`), c).toEqual([])
  })

  it('a login password needs only to be there and clean (old passwords still sign in)', () => {
    expect(messages(loginPassword, 'weak')).toEqual([])
    expect(messages(loginPassword, '')).toEqual([MSG.required('password')])
  })
})
