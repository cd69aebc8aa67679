import { mayPublish, maySubscribe, type BusIdentity } from '#app/bus/acl'
import { filterMatches, parseTopic, topics } from '#app/bus/topics'

const device: BusIdentity = { kind: 'device', org: 'greenleaf', deviceID: 'SCA-1' }
const user: BusIdentity = { kind: 'user', org: 'greenleaf', uid: 'u1' }

describe('bus topics', () => {
  it('builds and parses the SPEC §7 topics', () => {
    expect(parseTopic(topics.dtupdates('greenleaf'))).toEqual({ org: 'greenleaf', kind: 'dtupdates', subject: '' })
    expect(parseTopic(topics.bcast('greenleaf', 'SCA-1'))).toEqual({ org: 'greenleaf', kind: 'bcast', subject: 'SCA-1' })
    expect(parseTopic(topics.scanresp('greenleaf', 'u1'))).toEqual({ org: 'greenleaf', kind: 'scanresp', subject: 'u1' })
    expect(parseTopic(topics.notification('greenleaf', 'u1'))).toEqual({ org: 'greenleaf', kind: 'notification', subject: 'u1' })
    for (const bad of ['greenleaf', 'greenleaf/dtupdates/x', 'greenleaf/scanresp/u1/1', 'greenleaf/what/x', 'green leaf/dtupdates', '../dtupdates', 'greenleaf/bcast/+'])
      expect(parseTopic(bad), bad).toBeNull()
  })
  it('matches filters the MQTT way', () => {
    expect(filterMatches('+/dtupdates', 'greenleaf/dtupdates')).toBe(true)
    expect(filterMatches('greenleaf/#', 'greenleaf/bcast/x')).toBe(true)
    expect(filterMatches('+/scanresp/+/0', 'greenleaf/scanresp/u1/0')).toBe(true)
    expect(filterMatches('+/dtupdates', 'greenleaf/bcast/x')).toBe(false)
  })
})

describe('bus ACL', () => {
  it('keeps a device under its own organisation', () => {
    expect(maySubscribe(device, 'greenleaf/#')).toBe(true)
    expect(maySubscribe(device, 'greenleaf/request/SCA-1')).toBe(true)
    for (const f of ['#', '+/#', '+/dtupdates', 'harbor/#', '$SYS/#', 'greenleaf/../harbor/#', 'greenleaf/#/x', 'greenleaf/a#', 'greenleaf'])
      expect(maySubscribe(device, f), f).toBe(false)
    for (const tp of ['harbor/bcast/SCA-1', 'greenleaf/+/x', 'greenleaf/#', '$SYS/x', 'greenleaf']) expect(mayPublish(device, tp), tp).toBe(false)
  })
  it('lets a device publish only on its own topic, never as another device or the server (issue 20 item 4)', () => {
    expect(mayPublish(device, 'greenleaf/bcast/SCA-1')).toBe(true)
    for (const tp of [
      'greenleaf/bcast/SCA-2',
      'greenleaf/bcast/SCA-1/x',
      'greenleaf/bcast/+',
      'greenleaf/dtupdates',
      'greenleaf/notification/u1',
      'greenleaf/scanresp/u1/0',
      'greenleaf/scanreq/u1/0',
      'greenleaf/request/SCA-1',
      'greenleaf/request/SCA-2',
      'greenleaf/other/SCA-1',
    ])
      expect(mayPublish(device, tp), tp).toBe(false)
    // a device id that is not a plain name gets nothing
    expect(mayPublish({ kind: 'device', org: 'greenleaf', deviceID: '+' }, 'greenleaf/bcast/+')).toBe(false)
  })
  it('lets a user reach only their own notifications and scanner topics', () => {
    expect(maySubscribe(user, 'greenleaf/notification/u1')).toBe(true)
    expect(maySubscribe(user, 'greenleaf/scanreq/u1/0')).toBe(true)
    expect(mayPublish(user, 'greenleaf/scanresp/u1/0')).toBe(true)
    for (const f of ['greenleaf/notification/u2', 'greenleaf/notification/+', 'greenleaf/#', 'greenleaf/dtupdates', 'harbor/notification/u1']) expect(maySubscribe(user, f), f).toBe(false)
    for (const tp of ['greenleaf/scanresp/u2/0', 'greenleaf/dtupdates', 'greenleaf/bcast/x']) expect(mayPublish(user, tp), tp).toBe(false)
  })
  it('lets the server do everything but publish wildcards', () => {
    expect(maySubscribe({ kind: 'server' }, '+/dtupdates')).toBe(true)
    expect(mayPublish({ kind: 'server' }, 'harbor/request/x')).toBe(true)
    expect(mayPublish({ kind: 'server' }, 'harbor/#')).toBe(false)
  })
})
