import { once, readsFor } from '#app/utils/request-memo'

describe('reads shared by the loaders of one request', () => {
  it('reads once per GET request, even when the loaders ask at the same time', async () => {
    const ctx = { reads: readsFor('GET') }
    let n = 0
    const read = async () => ++n
    const [a, b] = await Promise.all([once(ctx, 'user:u1', read), once(ctx, 'user:u1', read)])
    expect([a, b, n]).toEqual([1, 1, 1])
    expect(await once(ctx, 'user:u2', read)).toBe(2)
    expect(await once({ reads: readsFor('GET') }, 'user:u1', read)).toBe(3) // another request reads again
  })

  it('reads every time on a POST (an action may have changed what it reads)', async () => {
    const ctx = { reads: readsFor('POST') }
    let n = 0
    const read = async () => ++n
    await once(ctx, 'k', read)
    expect(await once(ctx, 'k', read)).toBe(2)
  })

  it('does not remember a failed read', async () => {
    const ctx = { reads: readsFor('GET') }
    let n = 0
    const read = async () => {
      if (++n === 1) throw new Error('connection reset')
      return n
    }
    await expect(once(ctx, 'k', read)).rejects.toThrow('connection reset')
    await new Promise((r) => setTimeout(r, 0))
    expect(await once(ctx, 'k', read)).toBe(2)
  })
})
