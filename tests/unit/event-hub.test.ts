/**
 * The SSE hub's filtering (decision 015): a table change reaches the organisation's streams whose
 * user may read that table, never the writer's own session (named directly, or matched to the bus
 * echo of its write once, for ECHO_MS at most); notifications reach one user's streams of one
 * organisation; broadcasts reach everyone; closeAll ends every stream.
 */
import { ECHO_MS, EventHub } from '#app/events/event-hub.server'

function setup() {
  let now = 1_000_000
  const hub = new EventHub(() => now)
  const got: Record<string, string[]> = {}
  const closed: string[] = []
  const open = (name: string, o: { org: string; uid?: string; session?: string; readable?: string[] }) => {
    got[name] = []
    return hub.attach({ org: o.org, uid: o.uid, session: o.session, readable: o.readable && new Set(o.readable), send: (e, d) => got[name].push(`${e}:${JSON.stringify(d)}`), close: () => closed.push(name) })
  }
  return { hub, got, closed, open, tick: (ms: number) => (now += ms) }
}
const T = (c: string) => `table:${JSON.stringify({ collection: c })}`

describe('EventHub', () => {
  it('sends a table change only to streams of that organisation whose user may read the table', () => {
    const { hub, got, open } = setup()
    open('grower', { org: 'greenleaf', uid: 'g', session: 's-g', readable: ['fac_plants'] })
    open('finance', { org: 'greenleaf', uid: 'f', session: 's-f', readable: ['fin_invoices'] })
    open('other', { org: 'harbor', uid: 'g', session: 's-h', readable: ['fac_plants'] })
    hub.publish('greenleaf', 'table', { collection: 'fac_plants' })
    hub.publish('greenleaf', 'table', { collection: 'fin_invoices' })
    hub.publish('greenleaf', 'table', { nonsense: true })
    expect(got).toEqual({ grower: [T('fac_plants')], finance: [T('fin_invoices')], other: [] })
  })

  it("skips the writer's session named with the change, and only that session", () => {
    const { hub, got, open } = setup()
    open('writer', { org: 'greenleaf', session: 's-w', readable: ['fac_plants'] })
    open('writer-tab2', { org: 'greenleaf', session: 's-w', readable: ['fac_plants'] })
    open('colleague', { org: 'greenleaf', session: 's-c', readable: ['fac_plants'] })
    hub.publish('greenleaf', 'table', { collection: 'fac_plants' }, 's-w')
    expect(got).toEqual({ writer: [], 'writer-tab2': [], colleague: [T('fac_plants')] })
  })

  it('skips the bus echo of a write once per write, for that table and organisation only', () => {
    const { hub, got, open } = setup()
    open('writer', { org: 'greenleaf', session: 's-w', readable: ['fac_plants', 'fac_rooms'] })
    open('colleague', { org: 'greenleaf', session: 's-c', readable: ['fac_plants', 'fac_rooms'] })
    hub.expectEcho('greenleaf', 'fac_plants', 's-w')
    hub.expectEcho('greenleaf', 'fac_plants', 's-w')
    hub.publish('greenleaf', 'table', { collection: 'fac_rooms' }) // another table: not the echo
    hub.publish('greenleaf', 'table', { collection: 'fac_plants' }) // echo 1
    hub.publish('greenleaf', 'table', { collection: 'fac_plants' }) // echo 2
    hub.publish('greenleaf', 'table', { collection: 'fac_plants' }) // someone else's write
    expect(got.writer).toEqual([T('fac_rooms'), T('fac_plants')])
    expect(got.colleague).toEqual([T('fac_rooms'), T('fac_plants'), T('fac_plants'), T('fac_plants')])
  })

  it('forgets an echo that has not come back within ECHO_MS', () => {
    const { hub, got, open, tick } = setup()
    open('writer', { org: 'greenleaf', session: 's-w', readable: ['fac_plants'] })
    hub.expectEcho('greenleaf', 'fac_plants', 's-w')
    hub.expectEcho('harbor', 'fac_plants', 's-w')
    tick(ECHO_MS + 1)
    hub.publish('greenleaf', 'table', { collection: 'fac_plants' })
    expect(got.writer).toEqual([T('fac_plants')])
  })

  it("sends a notification to one user's streams of one organisation, and counts them", () => {
    const { hub, got, open } = setup()
    open('a1', { org: 'greenleaf', uid: 'a', readable: [] })
    open('a2', { org: 'greenleaf', uid: 'a' })
    open('a-harbor', { org: 'harbor', uid: 'a' })
    open('b', { org: 'greenleaf', uid: 'b' })
    expect(hub.publishToUser('greenleaf', 'a', 'notification', { id: 'm' })).toBe(2)
    expect(got).toEqual({ a1: ['notification:{"id":"m"}'], a2: ['notification:{"id":"m"}'], 'a-harbor': [], b: [] })
  })

  it('broadcasts to every stream; detach and closeAll remove streams', () => {
    const { hub, got, closed, open } = setup()
    const detach = open('x', { org: 'greenleaf' })
    open('y', { org: 'harbor' })
    hub.broadcast('resync', {})
    expect(got).toEqual({ x: ['resync:{}'], y: ['resync:{}'] })
    detach()
    expect(hub.size).toBe(1)
    hub.closeAll()
    expect(closed).toEqual(['y'])
    expect(hub.size).toBe(0)
  })
})
