/** Domain errors are recognised by shape: the production server is two bundles, each with its own AppError class. */
import { AppError, conflict, isAppError, statusOf } from '#app/utils/errors'

describe('isAppError', () => {
  it('knows our errors, also when another bundle made them', () => {
    expect(isAppError(conflict('changed'))).toBe(true)
    class OtherBundleAppError extends Error {
      constructor(readonly code: string, message: string) {
        super(message)
        this.name = 'AppError'
      }
    }
    const foreign = new OtherBundleAppError('CONFLICT', 'changed elsewhere')
    expect(foreign instanceof AppError).toBe(false)
    expect(isAppError(foreign)).toBe(true)
    expect(isAppError(foreign) && statusOf(foreign)).toBe(409)
  })

  it('does not take other errors for ours', () => {
    expect(isAppError(new Error('boom'))).toBe(false)
    const named = Object.assign(new Error('x'), { name: 'AppError', code: 'NOPE' })
    expect(isAppError(named)).toBe(false)
    expect(isAppError({ name: 'AppError', code: 'CONFLICT' })).toBe(false)
  })
})
