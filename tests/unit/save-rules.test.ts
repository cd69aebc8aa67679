/** SPEC §5 save rules for plants and plantings: every message, word for word, and the exact list of empty fields. */
import { parseWithZod } from '@conform-to/zod'
import { recordSchema } from '#app/forms/record-schema'
import {
  SAVE_MSG, SAVE_RULES, deadPlantDisposal, emptyFieldsMessage, isGiven, plantingOriginalCount, plantingRequired, runSaveRules, checkSaveRules, ruleRequired,
} from '#app/forms/save-rules'
import { schemas as operations } from '#app/seed/schemas/operations'
import { normalizeSchema } from '#app/schemas/table-schema'

const create = { mode: 'create' } as const
const update = { mode: 'update' } as const
const DEAD = 'Waste Method, Mix Material and Dead Weight should all be specified'

describe('fac_plants: a plant marked dead', () => {
  const disposal = { waste_method: 'Compost', mix_material: 'Soil', dead_weight: { qty: 250, unit: 'g' } }

  it('saves when it is not marked dead, whatever the disposal fields hold', () => {
    expect(runSaveRules('fac_plants', { tag: 'P1' }, create)).toEqual({ kind: 'continue' })
    expect(runSaveRules('fac_plants', { mark_as_dead: 'no' }, update)).toEqual({ kind: 'continue' })
    expect(runSaveRules('fac_plants', { mark_as_dead: false, waste_method: 'Compost' }, update)).toEqual({ kind: 'continue' })
  })
  it('saves when marked dead with waste method, mix material and dead weight', () => {
    expect(runSaveRules('fac_plants', { mark_as_dead: 'yes', ...disposal }, update)).toEqual({ kind: 'continue' })
    expect(runSaveRules('fac_plants', { mark_as_dead: true, ...disposal, dead_weight: { qty: '0.5', unit: 'oz' } }, create)).toEqual({ kind: 'continue' })
  })
  it('refuses when any of the three is missing, with the SPEC §5 message, naming the missing fields', () => {
    expect(runSaveRules('fac_plants', { mark_as_dead: 'yes' }, update)).toEqual({ kind: 'error', message: DEAD, fields: ['waste_method', 'mix_material', 'dead_weight'] })
    expect(runSaveRules('fac_plants', { mark_as_dead: 'yes', ...disposal, waste_method: '' }, update)).toEqual({ kind: 'error', message: DEAD, fields: ['waste_method'] })
    expect(runSaveRules('fac_plants', { mark_as_dead: 'yes', ...disposal, mix_material: null }, update)).toEqual({ kind: 'error', message: DEAD, fields: ['mix_material'] })
    const noQty = { mark_as_dead: 'true', ...disposal, dead_weight: { qty: '', unit: 'g' } }
    expect(runSaveRules('fac_plants', noQty, update)).toEqual({ kind: 'error', message: DEAD, fields: ['dead_weight'] })
    expect(deadPlantDisposal({ mark_as_dead: 'YES', ...disposal, dead_weight: undefined }, create)).toEqual({ kind: 'error', message: DEAD, fields: ['dead_weight'] })
    expect(SAVE_MSG.deadPlant).toBe(DEAD)
  })
  it('runs on what the edit form parses: an emptied dead weight is null, a ticked box is yes', () => {
    const plants = normalizeSchema(operations.find((s) => s.key === 'fac_plants'))
    const fd = new FormData()
    const entries = [
      ['tag', 'P1'], ['strain', 's1'], ['room', 'r1'], ['mark_as_dead', 'on'], ['waste_method', 'Compost'], ['mix_material', 'Soil'],
      ['dead_weight.qty', ''], ['dead_weight.unit', 'g'],
    ]
    for (const [k, v] of entries) fd.append(k, v)
    // the compiled form schema runs the rule itself (browser and action alike): the SPEC text on the missing field
    const s = parseWithZod(fd, { schema: recordSchema(plants, update) })
    expect(s.status).toBe('error')
    if (s.status === 'error') expect(s.error).toEqual({ dead_weight: [DEAD] })
    fd.set('dead_weight.qty', '2.5')
    const ok = parseWithZod(fd, { schema: recordSchema(plants, update) })
    expect(ok.status).toBe('success')
    if (ok.status === 'success') expect(runSaveRules('fac_plants', ok.value, update)).toEqual({ kind: 'continue' })
  })
})

describe('fac_plantings: fields that can not be empty', () => {
  const full = { strain: 's1', room: 'r1', mtag: '1A4000000000000000000001', origin: '1A4000000000000000000999', type: 'Clone', orig: 24 }

  it('saves a complete planting', () => {
    expect(runSaveRules('fac_plantings', full, create)).toEqual({ kind: 'continue' })
  })
  it('lists exactly the empty ones, in SPEC order, after "The following fields can not be empty: "', () => {
    const cases: [Record<string, unknown>, string, string[]][] = [
      [{ strain: '' }, 'The following fields can not be empty: Strain', ['strain']],
      [{ room: '  ' }, 'The following fields can not be empty: Room', ['room']],
      [{ mtag: null }, 'The following fields can not be empty: Tag Number', ['mtag']],
      [{ origin: undefined }, 'The following fields can not be empty: Source Pkg', ['origin']],
      [{ strain: '', room: '' }, 'The following fields can not be empty: Strain, Room', ['strain', 'room']],
      [{ room: '', origin: '' }, 'The following fields can not be empty: Room, Source Pkg', ['room', 'origin']],
      [{ strain: null, room: null, mtag: '', origin: '' }, 'The following fields can not be empty: Strain, Room, Tag Number, Source Pkg', ['strain', 'room', 'mtag', 'origin']],
    ]
    for (const [change, message, fields] of cases) {
      expect(runSaveRules('fac_plantings', { ...full, ...change }, update)).toEqual({ kind: 'error', message, fields })
    }
  })
  it('does not need Source Pkg when the type is Seed', () => {
    expect(runSaveRules('fac_plantings', { ...full, type: 'Seed', origin: '' }, create)).toEqual({ kind: 'continue' })
    expect(runSaveRules('fac_plantings', { ...full, type: 'Seed', origin: undefined }, create)).toEqual({ kind: 'continue' })
    expect(plantingRequired({ ...full, type: 'Seed', strain: '', origin: '' }, create)).toEqual({
      kind: 'error', message: 'The following fields can not be empty: Strain', fields: ['strain'],
    })
    // any other type, or none, needs it
    expect(plantingRequired({ ...full, type: '', origin: '' }, create)).toMatchObject({ message: 'The following fields can not be empty: Source Pkg' })
    expect(plantingRequired({ ...full, type: 'Seeds', origin: '' }, create)).toMatchObject({ message: 'The following fields can not be empty: Source Pkg' })
  })
  it('builds the message from the phrase-map prefix, so a translation can swap it', () => {
    expect(SAVE_MSG.emptyFields).toBe('The following fields can not be empty:')
    expect(emptyFieldsMessage(['Strain', 'Room'])).toBe('The following fields can not be empty: Strain, Room')
  })
})

describe('fac_plantings: Original Count', () => {
  const full = { strain: 's1', room: 'r1', mtag: 'T1', origin: 'P1', type: 'Clone' }
  const COUNT = 'Original Count must be between 1 and 100'

  it('takes a whole number from 1 to 100, stored or as typed', () => {
    for (const orig of [1, 50, 100, '1', '100']) expect(runSaveRules('fac_plantings', { ...full, orig }, update)).toEqual({ kind: 'continue' })
  })
  it('refuses anything else with the SPEC §5 message', () => {
    for (const orig of [0, 101, -1, 2.5, '2.5', 'ten', '', null, undefined, Number.NaN]) {
      expect(runSaveRules('fac_plantings', { ...full, orig }, update)).toEqual({ kind: 'error', message: COUNT, fields: ['orig'] })
    }
    expect(plantingOriginalCount({ orig: 1000 }, create)).toEqual({ kind: 'error', message: COUNT, fields: ['orig'] })
    expect(SAVE_MSG.originalCount).toBe(COUNT)
  })
  it('reports empty fields before the count', () => {
    expect(runSaveRules('fac_plantings', { ...full, strain: '', orig: 0 }, create)).toMatchObject({ message: 'The following fields can not be empty: Strain' })
  })
})

describe('the registry', () => {
  it('has the SPEC §5 tables, each rule a small function', () => {
    // and the areas' own (tests/setup.ts installs them): the visitor log's sign-in rule (app/areas/visitors),
    // the mail templates' known merge fields (app/areas/campaigns), and the shape of a scanner setting's
    // field (SPEC §3, tests/unit/scanner-setting.test.ts)
    expect(Object.keys(SAVE_RULES).sort()).toEqual(['crm_templates', 'fac_plantings', 'fac_plants', 'sen_scanner_settings', 'vis_log'])
    expect(SAVE_RULES.fac_plants).toEqual([deadPlantDisposal])
    expect(SAVE_RULES.fac_plantings).toEqual([plantingRequired, plantingOriginalCount])
  })
  it('continues for a table without rules, including names on Object.prototype', () => {
    expect(runSaveRules('set_rooms', {}, create)).toEqual({ kind: 'continue' })
    expect(runSaveRules('constructor', {}, create)).toEqual({ kind: 'continue' })
    expect(runSaveRules('__proto__', {}, create)).toEqual({ kind: 'continue' })
  })
  it('runs every rule: all errors are reported at once (issue 32 item 14), an error wins over a stop', () => {
    const seen: string[] = []
    SAVE_RULES.x_test = [
      () => (seen.push('a'), { kind: 'continue' }),
      () => (seen.push('b'), { kind: 'stop' }),
      () => (seen.push('c'), { kind: 'error', message: 'one', fields: ['x'] }),
      () => (seen.push('d'), { kind: 'error', message: 'two' }),
    ]
    try {
      expect(checkSaveRules('x_test', {}, create)).toEqual({ stop: true, errors: [{ kind: 'error', message: 'one', fields: ['x'] }, { kind: 'error', message: 'two' }] })
      expect(seen).toEqual(['a', 'b', 'c', 'd'])
      expect(runSaveRules('x_test', {}, create)).toEqual({ kind: 'error', message: 'one', fields: ['x'] })
      SAVE_RULES.x_test = SAVE_RULES.x_test.slice(0, 2)
      expect(runSaveRules('x_test', {}, create)).toEqual({ kind: 'stop' })
    } finally {
      delete SAVE_RULES.x_test
    }
  })
  it('names the fields the rules always need, for the form to mark required: Source Pkg only sometimes, a dead plant\'s disposal never always', () => {
    expect(ruleRequired('fac_plantings')).toEqual(['strain', 'room', 'mtag', 'orig'])
    expect(ruleRequired('fac_plants')).toEqual([])
    expect(ruleRequired('set_rooms')).toEqual([])
    expect(ruleRequired('__proto__')).toEqual([])
  })
  it('knows a given value from an empty one', () => {
    for (const v of ['x', 0, false, ['a'], { qty: 0, unit: 'g' }, { other: 1 }]) expect(isGiven(v)).toBe(true)
    for (const v of [undefined, null, '', '  ', [], { qty: '', unit: 'g' }, { qty: null, unit: 'g' }]) expect(isGiven(v)).toBe(false)
  })
})
