import { tagOf, GROW_LICENSE, SHOP_LICENSE } from '#app/metrc/emulator/model'
import { seedState } from '#app/metrc/emulator/seed'
import { convert, page, paging, phaseMoveAllowed, Refusal, sequentialTags, TAG_RE, unitKind, window } from '#app/metrc/emulator/rules'

const q = (s: string) => new URLSearchParams(s)

describe('METRC emulator rules', () => {
  it('pages only with a pageSize of 1–20, pages from 1', () => {
    expect(paging(q(''))).toBeNull()
    expect(paging(q('pageSize=20&pageNumber=3'))).toEqual({ size: 20, page: 3 })
    expect(() => paging(q('pageSize=21'))).toThrow(Refusal)
    expect(() => paging(q('pageSize=5&pageNumber=0'))).toThrow(/pageNumber/)
    const rows = Array.from({ length: 45 }, (_, i) => i)
    expect(page(rows, { size: 20, page: 3 })).toMatchObject({ Data: [40, 41, 42, 43, 44], Total: 45, TotalPages: 3, Page: 3, RecordsOnPage: 5 })
    expect(page(rows, null)).toMatchObject({ Total: 45, TotalPages: 1, PageSize: 45 })
    expect(page([], null)).toMatchObject({ Data: [], TotalPages: 1 })
  })
  it('takes lastModified windows of at most 24 hours, both ends given', () => {
    expect(window(q(''))).toBeNull()
    expect(window(q('lastModifiedStart=2026-11-01T00:00:00Z&lastModifiedEnd=2026-11-02T00:00:00Z'))).toEqual({ start: Date.parse('2026-11-01T00:00:00Z'), end: Date.parse('2026-11-02T00:00:00Z') })
    expect(() => window(q('lastModifiedStart=2026-11-01T00:00:00Z&lastModifiedEnd=2026-11-02T00:00:01Z'))).toThrow(/cannot exceed 24 hours/)
    expect(() => window(q('lastModifiedStart=2026-11-01T00:00:00Z'))).toThrow(/go together/)
    expect(() => window(q('lastModifiedStart=soon&lastModifiedEnd=later'))).toThrow(/ISO 8601/)
  })
  it('moves growth phases one way and knows unit kinds', () => {
    expect(phaseMoveAllowed('Vegetative', 'Flowering')).toBe(true)
    expect(phaseMoveAllowed('Flowering', 'Vegetative')).toBe(false)
    expect(phaseMoveAllowed('Flowering', 'Flowering')).toBe(false)
    expect(phaseMoveAllowed('Vegetative', 'Mother')).toBe(false)
    expect(unitKind('Grams')).toBe('WeightBased')
    expect(unitKind('ea')).toBe('CountBased')
    expect(unitKind('Furlongs')).toBeNull()
    expect(convert(1, 'Pounds', 'Grams')).toBe(453.5924)
    expect(() => convert(1, 'Each', 'Grams')).toThrow()
  })
  it('seeds 24-character tags, sequential from a starting tag, and licenses with and without plants', () => {
    const s = seedState({ plants: 30, packages: 10 })
    const f = s.facilities[GROW_LICENSE]
    expect(f.plants).toHaveLength(30)
    expect(f.packages).toHaveLength(10)
    for (const t of [...f.tags.plant, ...f.usedTags]) expect(t).toMatch(TAG_RE)
    expect(new Set(f.usedTags).size).toBe(f.usedTags.length)
    expect(f.tags.plant.some((t) => f.usedTags.includes(t))).toBe(false)
    expect(s.facilities[SHOP_LICENSE].plants).toEqual([])
    expect(s.licenses.find((l) => l.Number === SHOP_LICENSE)!.CanGrowPlants).toBe(false)
    const t = tagOf(GROW_LICENSE, 'plant', 41)
    expect(sequentialTags(t, 3)).toEqual([t, tagOf(GROW_LICENSE, 'plant', 42), tagOf(GROW_LICENSE, 'plant', 43)])
    expect(JSON.stringify(seedState({ plants: 30, packages: 10, now: new Date('2026-11-01T00:00:00Z') }))).toBe(JSON.stringify(seedState({ plants: 30, packages: 10, now: new Date('2026-11-01T00:00:00Z') })))
  })
})
