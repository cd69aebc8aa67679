import { consecutiveRuns, dayOf, phaseProblem, splitWeight, tagList, tagSequence } from './rules'

describe('cultivation rules', () => {
  it('tags follow on from a starting tag, keeping its width; none when they would not fit', () => {
    expect(tagSequence('1A4403X000C0000000000031', 3)).toEqual(['1A4403X000C0000000000031', '1A4403X000C0000000000032', '1A4403X000C0000000000033'])
    expect(tagSequence('TAG-0099', 2)).toEqual(['TAG-0099', 'TAG-0100'])
    expect(tagSequence('TAG-9999', 2)).toEqual([])
    expect(tagSequence('NODIGITS', 2)).toEqual([])
  })
  it('scanned tags: one per line, blanks dropped; runs of consecutive tags in order', () => {
    expect(tagList(' A001\n\nA002 , A005\r\n')).toEqual(['A001', 'A002', 'A005'])
    expect(consecutiveRuns(['A001', 'A002', 'A003', 'A007', 'A008', 'A004'])).toEqual([{ start: 'A001', count: 3 }, { start: 'A007', count: 2 }, { start: 'A004', count: 1 }])
  })
  it('phases only move forward; harvested and destroyed plants stay so', () => {
    expect(phaseProblem('Vegetative', 'Flowering')).toBeNull()
    expect(phaseProblem('Clone', 'Vegetative')).toBeNull()
    expect(phaseProblem('Flowering', 'Vegetative')).toBe('cannot go back from Flowering to Vegetative')
    expect(phaseProblem('Flowering', 'Flowering')).toBe('already Flowering')
    expect(phaseProblem('Harvested', 'Flowering')).toBe('harvested, no longer growing')
    expect(phaseProblem('Vegetative', 'Mother')).toBeNull()
    expect(phaseProblem('Flowering', 'Mother')).toBe('Flowering plants cannot become mothers')
  })
  it('a total split over plants adds up to the total', () => {
    expect(splitWeight(100, 3)).toEqual([33.33, 33.33, 33.34])
    expect(splitWeight(120, 1)).toEqual([120])
  })
  it('a form day is stored at noon UTC; a bad one is refused', () => {
    expect(dayOf('2026-11-20')).toBe('2026-11-20T12:00:00.000Z')
    expect(dayOf('11/20/2026')).toBeNull()
  })
})
