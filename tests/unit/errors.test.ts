/** Domain errors are recognised by their class: the process loads app/utils/errors.ts once (decision 022). */
import { AppError, conflict, isAppError, statusOf } from '#app/utils/errors'

describe('isAppError', () => {
  it('knows our errors and their statuses', () => {
    expect(isAppError(conflict('changed'))).toBe(true)
    const e = new AppError('CONFLICT', 'changed elsewhere')
    expect(isAppError(e) && statusOf(e)).toBe(409)
  })

  it('does not take other errors for ours, even one that copies the name and a code', () => {
    expect(isAppError(new Error('boom'))).toBe(false)
    class Lookalike extends Error {
      constructor(readonly code: string, message: string) {
        super(message)
        this.name = 'AppError'
      }
    }
    expect(isAppError(new Lookalike('CONFLICT', 'x'))).toBe(false)
    expect(isAppError(Object.assign(new Error('x'), { name: 'AppError', code: 'BAD_INPUT' }))).toBe(false)
    expect(isAppError({ name: 'AppError', code: 'CONFLICT' })).toBe(false)
  })
})
