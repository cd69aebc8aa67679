/**
 * The METRC emulator's pure parts (issue 9): tag rules, batch sizes, unit kinds, Basic auth and
 * licenses, row messages from zod, the fault patch, and the GET limiter's in-flight cap.
 */
import { z } from 'zod'
import { authenticate, basicPair, licenseFor, requirePlants } from '#app/metrc/emulator/auth'
import { applyFaultPatch, noFaults } from '#app/metrc/emulator/faults'
import { DEMO_USER_KEY, DEMO_VENDOR_KEY, EXPIRED_USER_KEY, GROW_LICENSE, HARBOR_LICENSE, SHOP_LICENSE, tagOf } from '#app/metrc/emulator/model'
import { GetLimiter } from '#app/metrc/emulator/rate-limit'
import { batchSizeAllowed, Refusal, sameUnitKind, tagProblem, unitName } from '#app/metrc/emulator/rules'
import { seedState } from '#app/metrc/emulator/seed'
import { issueMessage, WRITE_PATHS } from '#app/metrc/emulator/writes'

const basic = (v: string, u: string) => 'Basic ' + Buffer.from(`${v}:${u}`).toString('base64')
const status = (f: () => unknown) => {
  try {
    f()
    return 200
  } catch (e) {
    return (e as Refusal).status
  }
}

describe('METRC emulator parts', () => {
  it('takes a tag once, only from the facility and kind it belongs to', () => {
    const plant = [tagOf(GROW_LICENSE, 'plant', 1), tagOf(GROW_LICENSE, 'plant', 2)]
    expect(tagProblem(plant[0], plant)).toBeNull()
    expect(tagProblem(plant[0], plant, new Set([plant[0]]))).toBe(`Tag ${plant[0]} is not valid.`)
    expect(tagProblem(tagOf(GROW_LICENSE, 'package', 1), plant)).toMatch(/is not valid/) // wrong kind
    expect(tagProblem(tagOf(SHOP_LICENSE, 'plant', 1), plant)).toMatch(/is not valid/) // other facility
    expect(tagProblem('1a4ffff', ['1a4ffff'])).toMatch(/is not valid/) // not 24 upper-case characters
  })
  it('allows batches of 1 to 100 whole plants and matches units by kind', () => {
    expect([0, 1, 100, 101, 2.5, '5'].map(batchSizeAllowed)).toEqual([false, true, true, false, false, false])
    expect(sameUnitKind('Grams', 'lb')).toBe(true)
    expect(sameUnitKind('Each', 'Grams')).toBe(false)
    expect(sameUnitKind('Furlongs', 'Furlongs')).toBe(false)
    expect(unitName(' kg ')).toBe('Kilograms')
  })
  it('authenticates vendor:user keys and checks licenses (401) and license types (403)', () => {
    const s = seedState({ plants: 1, packages: 1 })
    expect(basicPair(basic('a', 'b:c'))).toEqual({ vendor: 'a', userKey: 'b:c' })
    expect(basicPair('Bearer x')).toBeNull()
    const caller = authenticate(s, basic(DEMO_VENDOR_KEY, DEMO_USER_KEY), [])
    expect(caller.user.licenses).toContain(GROW_LICENSE)
    expect(status(() => authenticate(s, basic('other-vendor', DEMO_USER_KEY), []))).toBe(401)
    expect(status(() => authenticate(s, basic(DEMO_VENDOR_KEY, EXPIRED_USER_KEY), []))).toBe(401)
    expect(status(() => authenticate(s, basic(DEMO_VENDOR_KEY, DEMO_USER_KEY), [DEMO_USER_KEY]))).toBe(401)
    expect(licenseFor(s, caller, GROW_LICENSE.toLowerCase())!.Number).toBe(GROW_LICENSE)
    expect(licenseFor(s, caller, null)).toBeNull()
    expect(status(() => licenseFor(s, caller, HARBOR_LICENSE))).toBe(401)
    expect(status(() => requirePlants(licenseFor(s, caller, SHOP_LICENSE)!))).toBe(403)
  })
  it('turns zod issues into row messages', () => {
    const schema = z.object({ Count: z.number().int('must be a whole number'), Name: z.string(), Type: z.enum(['Seed', 'Clone']) })
    const r = schema.safeParse({ Count: 1.5, Type: 'Cutting' })
    expect(r.success).toBe(false)
    expect(r.error!.issues.map(issueMessage)).toEqual(['Count must be a whole number.', 'Name is required.', 'Type must be one of Seed, Clone.'])
  })
  it('applies a fault patch only when every field is right', () => {
    const f = noFaults()
    expect(applyFaultPatch(f, { down: true, slowMs: 20, refuseMs: 100 })).toEqual({ refuseMs: 100 })
    expect(f).toMatchObject({ down: true, slowMs: 20 })
    expect(() => applyFaultPatch(f, { down: false, slowMs: -5 })).toThrow(/slowMs/)
    expect(() => applyFaultPatch(f, { nope: 1 })).toThrow()
    expect(f.down).toBe(true)
  })
  it('caps GETs in flight per facility and frees a slot when one is done', () => {
    const lim = new GetLimiter({ facilityPerSec: 1000, vendorPerSec: 1000, facilityInFlight: 2, vendorInFlight: 3 })
    const a = lim.admit('v', 'L1')
    lim.admit('v', 'L1')
    expect(status(() => lim.admit('v', 'L1'))).toBe(429)
    lim.admit('v', 'L2') // another facility, same vendor: third of three
    expect(status(() => lim.admit('v', 'L3'))).toBe(429)
    a()
    a() // releasing twice frees one slot only
    expect(status(() => lim.admit('v', 'L1'))).toBe(200)
    expect(status(() => lim.admit('v', 'L1'))).toBe(429)
  })
  it('serves the writes Canopy makes', () => {
    for (const w of ['POST /packages/v2', 'POST /packages/v2/adjust', 'PUT /packages/v2/finish', 'POST /plantbatches/v2/plantings', 'POST /plantbatches/v2/growthphase', 'PUT /plants/v2/growthphase', 'POST /plants/v2/waste', 'DELETE /plants/v2', 'PUT /plants/v2/harvest', 'POST /harvests/v2/packages', 'POST /harvests/v2/waste', 'POST /items/v2', 'PUT /items/v2'])
      expect(WRITE_PATHS).toContain(w)
  })
})
