/**
 * SPEC §8's server messages on the browser side (decision 060): why a page's data request could not reach
 * the server (no answer at all vs a proxy's 502/503/504), and a form post that reached no server.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { currentReach, installServerRetry, REACH_EVENT, type ReachDetail } from '../../app/client/server-retry'
import { isUnreachableResult, postOrUnreachable, skipRevalidationWhenUnreachable, unreachableResult } from '../../app/client/unreachable-action'
import { REACH_MESSAGE } from '../../app/components/connection'

type Answer = Response | Error
function fakeWindow(answers: Answer[]) {
  const win = new EventTarget() as EventTarget & { location: { origin: string }; fetch: typeof fetch }
  win.location = { origin: 'http://canopy.test' }
  const asked: string[] = []
  win.fetch = (async (input: RequestInfo | URL) => {
    asked.push(String(input))
    const a = answers.shift()
    if (!a) throw new Error('no more answers')
    if (a instanceof Error) throw a
    return a
  }) as typeof fetch
  const events: ReachDetail[] = []
  win.addEventListener(REACH_EVENT, (e) => events.push((e as CustomEvent<ReachDetail>).detail))
  const undo = installServerRetry(win as unknown as Window & typeof globalThis)
  return { win, asked, events, undo }
}

afterEach(() => void vi.useRealTimers())

describe('a data request the server does not answer', () => {
  it.each([502, 503, 504])('a proxy answering %i is "not accessible", retried until the server answers', async (status) => {
    vi.useFakeTimers()
    const { win, asked, events, undo } = fakeWindow([new Response('bad gateway', { status }), new Response('{"ok":1}', { status: 200 })])
    const p = win.fetch('http://canopy.test/culPlants?_data=routes%2F%24')
    await vi.advanceTimersByTimeAsync(1000)
    const r = await p
    expect(await r.json()).toEqual({ ok: 1 })
    expect(asked).toHaveLength(2)
    expect(events).toEqual([{ reachable: false, why: 'proxy' }, { reachable: true }])
    expect(REACH_MESSAGE.proxy).toBe('Server is not accessible, please try again later')
    undo()
  })

  it('no response at all is "Server unreachable"; the state is kept for a dialog that opens later', async () => {
    vi.useFakeTimers()
    const { win, events, undo } = fakeWindow([new TypeError('Failed to fetch'), new TypeError('Failed to fetch'), new Response('{}', { status: 200 })])
    const p = win.fetch('http://canopy.test/__manifest?paths=%2FculPlants')
    await vi.advanceTimersByTimeAsync(1000)
    // one event for the outage, however many tries it takes
    expect(events).toEqual([{ reachable: false, why: 'unanswered' }])
    expect(currentReach()).toEqual({ reachable: false, why: 'unanswered' })
    expect(REACH_MESSAGE[events[0].reachable ? 'unanswered' : events[0].why]).toBe('Server unreachable')
    await vi.advanceTimersByTimeAsync(2000)
    await p
    expect(events).toEqual([{ reachable: false, why: 'unanswered' }, { reachable: true }])
    expect(currentReach()).toEqual({ reachable: true })
    undo()
  })

  it("a form post answered 502 by a proxy fails like one with no answer; Canopy's own 503 answer passes", async () => {
    const proxied = fakeWindow([new Response('<h1>502 Bad Gateway</h1>', { status: 502 })])
    const e = await proxied.win.fetch('http://canopy.test/Welcome?_data=routes%2FWelcome', { method: 'POST' }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(TypeError)
    expect(proxied.asked).toHaveLength(1)
    proxied.undo()
    const own = fakeWindow([new Response('{"message":"x"}', { status: 503, headers: { 'X-Remix-Response': 'yes' } })])
    expect((await own.win.fetch('http://canopy.test/Welcome?_data=routes%2FWelcome', { method: 'POST' })).status).toBe(503)
    own.undo()
  })

  it('a form post is never retried: its failure reaches the caller', async () => {
    const { win, asked, events, undo } = fakeWindow([new TypeError('Failed to fetch')])
    await expect(win.fetch('http://canopy.test/Welcome?_data=routes%2FWelcome', { method: 'POST' })).rejects.toThrow('Failed to fetch')
    expect(asked).toHaveLength(1)
    expect(events).toEqual([])
    undo()
  })
})

describe('a form post that reaches no server', () => {
  const fallback = () => unreachableResult('Servers unreachable. Please try again later. If error persists please contact support', { email: 'a@b.c' })

  it('a network failure becomes the message, keeping what was typed', async () => {
    const r = await postOrUnreachable<object>(() => Promise.reject(new TypeError('Failed to fetch')), fallback)
    expect(r).toEqual({ reached: 'unreachable', message: 'Servers unreachable. Please try again later. If error persists please contact support', tone: 'error', email: 'a@b.c' })
    expect(isUnreachableResult(r)).toBe(true)
  })

  it("a proxy's error page (text, not the action's JSON) is unreachable too", async () => {
    expect(isUnreachableResult(await postOrUnreachable<unknown>(() => Promise.resolve('<html>502 Bad Gateway</html>'), fallback))).toBe(true)
  })

  it("the server's own answers pass through: data as is, a redirect or an error thrown on", async () => {
    const refused = { message: 'Login failed', tone: 'error' }
    expect(await postOrUnreachable<unknown>(() => Promise.resolve(refused), fallback)).toBe(refused)
    const redirect = new Response(null, { status: 302, headers: { Location: '/Facility' } })
    await expect(postOrUnreachable<unknown>(() => Promise.reject(redirect), fallback)).rejects.toBe(redirect)
    await expect(postOrUnreachable<unknown>(() => Promise.reject(new Error('boom')), fallback)).rejects.toThrow('boom')
  })

  it('after such an answer no loader is asked again; after any other the default holds', () => {
    const args = { defaultShouldRevalidate: true } as Parameters<typeof skipRevalidationWhenUnreachable>[0]
    expect(skipRevalidationWhenUnreachable({ ...args, actionResult: fallback() })).toBe(false)
    expect(skipRevalidationWhenUnreachable({ ...args, actionResult: { message: 'Login failed' } })).toBe(true)
  })
})
