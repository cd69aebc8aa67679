/** The edit form's zod compiler (issue 6): every field type, FormData coercion, conform interop, read-only refusal. */
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import {
  FORM_MSG, MAX_ITEMS, editableFields, formValuesOf, recordSchema, referenceFields, toLocalInput, type RecordSchemaOptions,
} from '#app/forms/record-schema'
import { schemas as operations } from '#app/seed/schemas/operations'
import { normalizeSchema, type TableSchema } from '#app/schemas/table-schema'

const ALL = normalizeSchema({
  key: 'x_all',
  label: 'All',
  items: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'plain', label: 'Plain', type: 'number' },
    { key: 'count', label: 'Count', type: 'number', min: 1, max: 100 },
    { key: 'low', label: 'Low', type: 'number', min: 0 },
    { key: 'high', label: 'High', type: 'number', max: 10 },
    { key: 'when', label: 'When', type: 'date' },
    { key: 'reading', label: 'Reading', type: 'remote' },
    { key: 'body', label: 'Body', type: 'code' },
    { key: 'file', label: 'File', type: 'fileDND' },
    { key: 'price', label: 'Price', type: 'currency' },
    { key: 'delta', label: 'Delta', type: 'currency', min: -1000 },
    { key: 'notes', label: 'Notes', type: 'textarea' },
    { key: 'weight', label: 'Weight', type: 'measure', units: ['g', 'oz', 'lb'] },
    { key: 'vol', label: 'Volume', type: 'measure' },
    { key: 'each', label: 'Each', type: 'measure', units: ['units'] },
    { key: 'stage', label: 'Stage', type: 'list', en: { list: ['Cut', 'Rooting', 'Landfill (mixed)'] } },
    { key: 'room', label: 'Room', type: 'list', en: { table: 'set_rooms', labelField: 'name' } },
    { key: 'tags', label: 'Tags', type: 'multilist', en: { list: ['a', 'b', 'c'] } },
    { key: 'rooms', label: 'Rooms', type: 'multilist', en: { table: 'set_rooms' } },
    { key: 'alive', label: 'Alive', type: 'status' },
    { key: 'gauges', label: 'Gauges', type: 'gaugearray', min: 0, max: 100 },
    { key: 'doc', label: 'Doc', type: 'document' },
    { key: 'fn', label: 'Fn', type: 'function', formula: 'gauges_total * 2' },
    { key: 'gauges_total', label: 'Gauges Total', type: 'number' },
    {
      key: 'items', label: 'Items', type: 'array',
      array: [
        { key: 'id', label: 'Line', ro: 'yes' },
        { key: 'product', label: 'Product', type: 'list', en: { table: 'dis_products' } },
        { key: 'qty', label: 'Qty', type: 'number', min: 1, required: true },
        { key: 'total', label: 'Line Total', type: 'currency', ro: 'yes' },
      ],
    },
    { key: 'done', label: 'Done', type: 'check' },
    { key: 'locked', label: 'Locked', ro: 'yes' },
    { key: 'serial', label: 'Serial' },
  ],
  readonly: ['serial'],
})

const CREATE: RecordSchemaOptions = { mode: 'create' }
const op = (key: string): TableSchema => normalizeSchema(operations.find((s) => s.key === key))
const PLANTS = op('fac_plants')
const PLANTINGS = op('fac_plantings')

/** FormData from name/value pairs, in order (a name may repeat). */
function form(entries: [string, string][]): FormData {
  const fd = new FormData()
  for (const [k, v] of entries) fd.append(k, v)
  return fd
}

/** A form post through conform, as the server action and the browser parse it. */
function post(entries: [string, string][], opts: RecordSchemaOptions = CREATE, schema = ALL) {
  const submission = parseWithZod(form(entries), { schema: recordSchema(schema, opts) })
  return submission.status === 'success'
    ? { ok: true as const, value: submission.value as Record<string, unknown>, error: {} as Record<string, string[] | null> }
    : { ok: false as const, value: undefined, error: (submission.error ?? {}) as Record<string, string[] | null> }
}

/** A plain zod parse of an object (what a JSON body would go through). */
function parse(values: Record<string, unknown>, opts: RecordSchemaOptions = CREATE, schema = ALL) {
  const r = recordSchema(schema, opts).safeParse(values)
  const error: Record<string, string[]> = {}
  if (!r.success) for (const i of r.error.issues) (error[i.path.join('.')] ??= []).push(i.message)
  return { ok: r.success, value: r.success ? (r.data as Record<string, unknown>) : undefined, error }
}

const NAME: [string, string] = ['name', 'Batch 1']

describe('text-like fields', () => {
  it('trims single-line text and keeps markup exactly as typed (plain text, never stripped)', () => {
    const evil = '<script>alert("x")</script><b onmouseover=alert(1)>hi</b> & \'q\''
    const r = post([['name', `  ${evil}  `], ['reading', ' 12.5 g ']])
    expect(r.value).toMatchObject({ name: evil, reading: '12.5 g' })
  })
  it('keeps textarea, code and document text as typed, indentation and newlines included', () => {
    const code = '  <div>\n    {{ x }}\n  </div>\n'
    const r = post([NAME, ['notes', '  two\n\nlines '], ['body', code], ['doc', '<h1>Title</h1>']])
    expect(r.value).toMatchObject({ notes: '  two\n\nlines ', body: code, doc: '<h1>Title</h1>' })
  })
  it('refuses a typed value for a function field: it is computed from its formula', () => {
    expect(post([NAME, ['fn', '12']]).error.fn).toEqual(['Fn is read-only'])
  })
  it('refuses oversized text: 500 for text, 20,000 for textarea and code, 100,000 for documents', () => {
    expect(post([['name', 'x'.repeat(500)]]).ok).toBe(true)
    expect(post([['name', 'x'.repeat(501)]]).error.name).toEqual(['Name must be at most 500 characters'])
    expect(post([NAME, ['reading', 'x'.repeat(501)]]).error.reading).toEqual(['Reading must be at most 500 characters'])
    expect(post([NAME, ['notes', 'x'.repeat(20_000)]]).ok).toBe(true)
    expect(post([NAME, ['notes', 'x'.repeat(20_001)]]).error.notes).toEqual(['Notes must be at most 20,000 characters'])
    expect(post([NAME, ['body', 'x'.repeat(20_001)]]).error.body).toEqual(['Body must be at most 20,000 characters'])
    expect(post([NAME, ['doc', 'x'.repeat(100_000)]]).ok).toBe(true)
    expect(post([NAME, ['doc', 'x'.repeat(100_001)]]).error.doc).toEqual(['Doc must be at most 100,000 characters'])
  })
  it('refuses NUL, which PostgreSQL jsonb cannot store', () => {
    expect(post([['name', 'a\u0000b']]).error.name).toEqual(['Name contains a character that is not allowed'])
    expect(post([NAME, ['notes', 'a\u0000b']]).error.notes).toEqual(['Notes contains a character that is not allowed'])
  })
  it('says a required field is missing in the sign-in wording: empty, blank or not posted', () => {
    const msg = ['You must enter a Name value']
    expect(post([['name', '']]).error.name).toEqual(msg)
    expect(post([['name', '   ']]).error.name).toEqual(msg)
    expect(post([]).error.name).toEqual(msg)
    expect(parse({ name: null }).error.name).toEqual(msg)
    expect(parse({}).error.name).toEqual(msg)
  })
  it('clears an optional field posted empty (null) and leaves out one not posted', () => {
    const r = post([NAME, ['notes', ''], ['reading', '  ']])
    expect(r.value).toMatchObject({ notes: null, reading: null })
    expect(r.value).not.toHaveProperty('body')
    expect(r.value).not.toHaveProperty('plain')
  })
  it('accepts a number for text from a JSON body, refuses objects', () => {
    expect(parse({ name: 12 }).value?.name).toBe('12')
    expect(parse({ name: { a: 1 } }).error.name).toEqual(['Name must be text'])
  })
  it('takes a file name, path or http(s) address for a file drop, never javascript:, control characters or ../', () => {
    for (const ok of ['Manifest_0001.pdf', '/files/greenleaf/docs/DOC-0101.pdf', 'https://cdn.example.com/a.png']) {
      expect(post([NAME, ['file', ok]]).value?.file).toBe(ok)
    }
    for (const bad of ['javascript:alert(1)', 'data:text/html,<b>x</b>', '/files/../../etc/passwd', 'a\\..\\b', 'a\nb.pdf']) {
      expect(parse({ name: 'x', file: bad }).error.file).toEqual(['File must be a file name or path'])
    }
    expect(post([NAME, ['file', 'x'.repeat(1001)]]).error.file).toEqual(['File must be at most 1,000 characters'])
  })
})

describe('number', () => {
  it('coerces FormData strings', () => {
    expect(post([NAME, ['plain', '12'], ['count', ' 42 '], ['low', '0'], ['high', '-3.5']]).value).toMatchObject({ plain: 12, count: 42, low: 0, high: -3.5 })
  })
  it('refuses what is not a plain decimal, the same way through conform and a plain parse', () => {
    for (const bad of ['abc', '12abc', '0x10', '1e3', 'Infinity', '1,000', '--1']) {
      expect(post([NAME, ['plain', bad]]).error.plain).toEqual(['Plain must be a number'])
      expect(parse({ name: 'x', plain: bad }).error.plain).toEqual(['Plain must be a number'])
    }
    expect(parse({ name: 'x', plain: ['1', '2'] }).error.plain).toEqual(['Plain must be a number'])
  })
  it('says between, at least or at most', () => {
    expect(post([NAME, ['count', '0']]).error.count).toEqual(['Count must be between 1 and 100'])
    expect(post([NAME, ['count', '101']]).error.count).toEqual(['Count must be between 1 and 100'])
    expect(post([NAME, ['count', '1']]).ok).toBe(true)
    expect(post([NAME, ['count', '100']]).ok).toBe(true)
    expect(post([NAME, ['low', '-1']]).error.low).toEqual(['Low must be at least 0'])
    expect(post([NAME, ['high', '11']]).error.high).toEqual(['High must be at most 10'])
  })
  it('takes numbers from a JSON body as they are', () => {
    expect(parse({ name: 'x', plain: 7.25 }).value?.plain).toBe(7.25)
    expect(parse({ name: 'x', plain: Number.NaN }).error.plain).toEqual(['Plain must be a number'])
  })
})

describe('currency', () => {
  it('is a plain decimal with at most 2 decimals', () => {
    expect(post([NAME, ['price', '12.5']]).value?.price).toBe(12.5)
    expect(post([NAME, ['price', '12.50']]).value?.price).toBe(12.5)
    expect(post([NAME, ['price', '1234']]).value?.price).toBe(1234)
    expect(post([NAME, ['price', '0.07']]).value?.price).toBe(0.07)
    expect(post([NAME, ['price', '12.345']]).error.price).toEqual(['Price can have at most 2 decimals'])
    expect(parse({ name: 'x', price: 0.1 + 0.2 }).ok).toBe(true) // 0.30000000000000004 is 30 cents
    for (const bad of ['$12', '12,50', '1,234.00', 'ten']) expect(post([NAME, ['price', bad]]).error.price).toEqual(['Price must be an amount like 12.50'])
  })
  it('is not negative unless the schema min allows it', () => {
    expect(post([NAME, ['price', '-1']]).error.price).toEqual(['Price can not be negative'])
    expect(post([NAME, ['price', '0']]).value?.price).toBe(0)
    expect(post([NAME, ['delta', '-12.25']]).value?.delta).toBe(-12.25)
    expect(post([NAME, ['delta', '-1000.01']]).error.delta).toEqual(['Delta must be at least -1000'])
  })
})

describe('check and status', () => {
  it("take yes/no, and 'on', 'true', 'false', 'off' in any case", () => {
    const cases: [string, string][] = [['yes', 'yes'], ['no', 'no'], ['on', 'yes'], ['true', 'yes'], ['TRUE', 'yes'], ['false', 'no'], ['off', 'no'], [' Yes ', 'yes']]
    for (const [input, out] of cases) {
      expect(post([NAME, ['done', input], ['alive', input]]).value).toMatchObject({ done: out, alive: out })
    }
  })
  it('an unticked box posts nothing: no', () => {
    expect(post([NAME]).value).toMatchObject({ done: 'no', alive: 'no' })
    expect(parse({ name: 'x', done: true, alive: false }).value).toMatchObject({ done: 'yes', alive: 'no' })
  })
  it('a hidden "no" before the box: the last value wins', () => {
    expect(post([NAME, ['done', 'no'], ['done', 'yes']]).value?.done).toBe('yes')
    expect(post([NAME, ['done', 'no']]).value?.done).toBe('no')
  })
  it('refuses anything else', () => {
    expect(post([NAME, ['done', 'maybe']]).error.done).toEqual(['Done must be yes or no'])
    expect(post([NAME, ['alive', '1']]).error.alive).toEqual(['Alive must be yes or no'])
  })
})

describe('date', () => {
  const LA: RecordSchemaOptions = { mode: 'create', timeZone: 'America/Los_Angeles' }
  it('reads a datetime-local value as UTC by default and returns an ISO instant', () => {
    expect(post([NAME, ['when', '2026-03-07T14:05']]).value?.when).toBe('2026-03-07T14:05:00.000Z')
    expect(post([NAME, ['when', '2026-03-07']]).value?.when).toBe('2026-03-07T00:00:00.000Z')
  })
  it("reads a datetime-local value in the facility's zone, across daylight saving", () => {
    expect(post([NAME, ['when', '2026-01-15T12:30']], LA).value?.when).toBe('2026-01-15T20:30:00.000Z') // PST
    expect(post([NAME, ['when', '2026-07-15T13:30']], LA).value?.when).toBe('2026-07-15T20:30:00.000Z') // PDT
    expect(post([NAME, ['when', '2026-03-08T03:00']], LA).value?.when).toBe('2026-03-08T10:00:00.000Z')
    expect(post([NAME, ['when', '2026-03-08T01:55']], LA).value?.when).toBe('2026-03-08T09:55:00.000Z')
    expect(post([NAME, ['when', '2026-03-08T02:30']], LA).value?.when).toBe('2026-03-08T10:30:00.000Z') // skipped hour moves forward
    expect(post([NAME, ['when', '2026-11-01T01:30']], LA).value?.when).toBe('2026-11-01T08:30:00.000Z') // happens twice: the first
    expect(post([NAME, ['when', '2026-11-01T02:00']], LA).value?.when).toBe('2026-11-01T10:00:00.000Z')
    expect(post([NAME, ['when', '2026-03-08T09:00']], { mode: 'create', timeZone: 'Asia/Kathmandu' }).value?.when).toBe('2026-03-08T03:15:00.000Z')
  })
  it('takes full ISO instants whatever the zone option', () => {
    expect(post([NAME, ['when', '2026-03-07T14:05:00Z']], LA).value?.when).toBe('2026-03-07T14:05:00.000Z')
    expect(post([NAME, ['when', '2026-03-07T14:05:00.000Z']]).value?.when).toBe('2026-03-07T14:05:00.000Z')
    expect(post([NAME, ['when', '2026-03-07T14:05:00+05:30']]).value?.when).toBe('2026-03-07T08:35:00.000Z')
    expect(post([NAME, ['when', '2026-03-07T06:05-0800']]).value?.when).toBe('2026-03-07T14:05:00.000Z')
  })
  it('needs minutes on the 5-minute step of the picker, seconds zero (SPEC §9)', () => {
    const step = ['When must be on a 5-minute step, like 2:05 or 2:10']
    expect(post([NAME, ['when', '2026-03-07T14:03']]).error.when).toEqual(step)
    expect(post([NAME, ['when', '2026-03-07T14:05:30Z']]).error.when).toEqual(step)
    expect(post([NAME, ['when', '2026-03-07T14:05:00.001Z']]).error.when).toEqual(step)
    expect(post([NAME, ['when', '2026-03-07T14:55']]).ok).toBe(true)
  })
  it('refuses what is not a real date', () => {
    for (const bad of ['tomorrow', '03/07/2026', '2026-02-30T10:00', '2026-13-01', '2026-03-07T24:00', '2026-03-07T14:05+25:00', '0999-01-01']) {
      expect(post([NAME, ['when', bad]]).error.when).toEqual(['When must be a date and time'])
    }
    expect(post([NAME, ['when', '2028-02-29T10:00']]).ok).toBe(true)
    expect(post([NAME, ['when', '2026-02-29T10:00']]).ok).toBe(false)
  })
  it('refuses an unknown time zone when the schema is built', () => {
    expect(() => recordSchema(ALL, { mode: 'create', timeZone: 'Mars/Olympus' })).toThrow(/not an IANA time zone/)
  })
})

describe('measure', () => {
  it('is { qty, unit } from the nested field.qty / field.unit inputs', () => {
    expect(post([NAME, ['weight.qty', '12.5'], ['weight.unit', 'g']]).value?.weight).toEqual({ qty: 12.5, unit: 'g' })
    expect(post([NAME, ['weight.qty', '1'], ['weight.unit', 'Pounds']]).value?.weight).toEqual({ qty: 1, unit: 'lb' })
    expect(parse({ name: 'x', weight: '3 oz' }).value?.weight).toEqual({ qty: 3, unit: 'oz' })
    expect(parse({ name: 'x', weight: { qty: 2, unit: 'g', extra: 'dropped' } }).value?.weight).toEqual({ qty: 2, unit: 'g' })
  })
  it("refuses a unit that is not one of the field's units", () => {
    const msg = ['Weight unit must be one of g, oz, lb']
    expect(post([NAME, ['weight.qty', '1'], ['weight.unit', 'kg']]).error['weight.unit']).toEqual(msg)
    expect(post([NAME, ['weight.qty', '1'], ['weight.unit', 'mg']]).error['weight.unit']).toEqual(msg)
    expect(post([NAME, ['weight.qty', '1'], ['weight.unit', 'furlongs']]).error['weight.unit']).toEqual(msg)
    expect(post([NAME, ['weight.qty', '1']]).error['weight.unit']).toEqual(msg)
  })
  it('offers every SPEC unit when the field names none, and fills in the only unit of a one-unit field', () => {
    expect(post([NAME, ['vol.qty', '2'], ['vol.unit', 'fl oz']]).value?.vol).toEqual({ qty: 2, unit: 'fl oz' })
    expect(post([NAME, ['vol.qty', '2'], ['vol.unit', 'gal']]).value?.vol).toEqual({ qty: 2, unit: 'gal' })
    expect(post([NAME, ['vol.qty', '2'], ['vol.unit', 'mg']]).error['vol.unit']?.[0]).toMatch(/^Volume unit must be one of g, kg, oz, lb, units, packages, ml, l, fl oz, gal$/)
    expect(post([NAME, ['each.qty', '6']]).value?.each).toEqual({ qty: 6, unit: 'units' })
  })
  it('checks the quantity: a number, not negative unless the schema says so', () => {
    expect(post([NAME, ['weight.qty', 'heavy'], ['weight.unit', 'g']]).error['weight.qty']).toEqual(['Weight must be a number'])
    expect(post([NAME, ['weight.qty', '-1'], ['weight.unit', 'g']]).error['weight.qty']).toEqual(['Weight can not be negative'])
    expect(parse({ name: 'x', weight: 'heavy' }).error.weight).toEqual(['Weight must be a quantity and a unit'])
  })
  it('an empty quantity is an empty measure, whatever the unit picker says', () => {
    expect(post([NAME, ['weight.qty', ''], ['weight.unit', 'g']]).value?.weight).toBeNull()
    expect(post([NAME]).value).not.toHaveProperty('weight')
  })
  it('a column that keeps its measures in one unit (measure:g) stores what was entered converted to it', () => {
    const s = normalizeSchema({ key: 'x_m', items: [{ key: 'w', label: 'Waste', type: 'measure', format: 'measure:g', units: ['lb', 'oz', 'g', 'ml'] }] })
    expect(post([['w.qty', '2'], ['w.unit', 'lb']], CREATE, s).value?.w).toEqual({ qty: 907.184, unit: 'g' })
    expect(post([['w.qty', '1'], ['w.unit', 'oz']], CREATE, s).value?.w).toEqual({ qty: 28.3495, unit: 'g' })
    expect(post([['w.qty', '12.5'], ['w.unit', 'g']], CREATE, s).value?.w).toEqual({ qty: 12.5, unit: 'g' })
    expect(parse({ w: '0.5 lb' }, CREATE, s).value?.w).toEqual({ qty: 226.796, unit: 'g' })
    // a unit of another kind can not become grams, even where the field lists it
    expect(post([['w.qty', '5'], ['w.unit', 'ml']], CREATE, s).error.w).toEqual(['Waste unit must be one of lb, oz, g'])
    expect(post([['w.qty', ''], ['w.unit', 'lb']], CREATE, s).value?.w).toBeNull()
  })
  it('a required measure left empty says so on the field itself', () => {
    const s = normalizeSchema({ key: 'x_m', items: [{ key: 'w', label: 'Wet Weight', type: 'measure', units: ['g', 'lb'], required: true }] })
    expect(post([['w.qty', ''], ['w.unit', 'g']], CREATE, s).error).toEqual({ w: ['You must enter a Wet Weight value'] })
    expect(post([], CREATE, s).error).toEqual({ w: ['You must enter a Wet Weight value'] })
    expect(parse({}, CREATE, s).error).toEqual({ w: ['You must enter a Wet Weight value'] })
  })
})

describe('list and multilist', () => {
  it('a fixed list takes one of its options', () => {
    expect(post([NAME, ['stage', 'Landfill (mixed)']]).value?.stage).toBe('Landfill (mixed)')
    expect(post([NAME, ['stage', ' Cut ']]).value?.stage).toBe('Cut')
    expect(post([NAME, ['stage', 'cut']]).error.stage).toEqual(['Choose a Stage from the list'])
    expect(post([NAME, ['stage', 'Rooted']]).error.stage).toEqual(['Choose a Stage from the list'])
    expect(post([NAME, ['stage', '']]).value?.stage).toBeNull()
  })
  it('a list from another table takes an id-shaped string; existence is for the server', () => {
    expect(post([NAME, ['room', '5f1e0c2a9b3d4e5f6a7b8c9d']]).value?.room).toBe('5f1e0c2a9b3d4e5f6a7b8c9d')
    for (const bad of ['../set_users', 'a b', '<x>', 'x'.repeat(65)]) expect(post([NAME, ['room', bad]]).error.room).toEqual(['Room is not a valid choice'])
  })
  it('names the reference fields the server must look up, sub-table columns included', () => {
    expect(referenceFields(ALL)).toEqual([
      { key: 'room', label: 'Room', table: 'set_rooms', labelField: 'name', multiple: false },
      { key: 'rooms', label: 'Rooms', table: 'set_rooms', labelField: 'name', multiple: true },
      { key: 'product', label: 'Product', table: 'dis_products', labelField: 'name', multiple: false, within: 'items' },
    ])
    expect(referenceFields(PLANTS).map((r) => r.key)).toEqual(['strain', 'room', 'planting', 'harvest'])
  })
  it('a multilist is a list of strings: repeated inputs, one input, or none', () => {
    expect(post([NAME, ['tags', 'a'], ['tags', 'c']]).value?.tags).toEqual(['a', 'c'])
    expect(post([NAME, ['tags', 'b']]).value?.tags).toEqual(['b'])
    expect(post([NAME]).value?.tags).toEqual([])
    expect(post([NAME, ['tags', 'a'], ['tags', 'a'], ['tags', '']]).value?.tags).toEqual(['a'])
    expect(post([NAME, ['rooms', 'abc'], ['rooms', 'def']]).value?.rooms).toEqual(['abc', 'def'])
  })
  it('a multilist refuses options not in its list, and too many items', () => {
    expect(post([NAME, ['tags', 'a'], ['tags', 'z']]).error['tags[1]']).toEqual(['Choose a Tags from the list'])
    expect(post([NAME, ...Array.from({ length: MAX_ITEMS + 1 }, (_, i): [string, string] => ['rooms', `r${i}`])]).error.rooms).toEqual(['Rooms can have at most 500 items'])
  })
  it('a required multilist needs one item', () => {
    const s = normalizeSchema({ key: 'x_ml', items: [{ key: 'mods', label: 'Modules', type: 'multilist', en: { list: ['a'] }, required: true }] })
    expect(post([], CREATE, s).error).toEqual({ mods: ['You must enter a Modules value'] })
    expect(post([['mods', 'a']], CREATE, s).value).toEqual({ mods: ['a'] })
  })
})

describe('gaugearray', () => {
  it('is a list of numbers from indexed inputs, repeated inputs or one comma-separated text', () => {
    expect(post([NAME, ['gauges[0]', '1'], ['gauges[1]', '2.5']]).value?.gauges).toEqual([1, 2.5])
    expect(post([NAME, ['gauges', '3'], ['gauges', '4']]).value?.gauges).toEqual([3, 4])
    expect(post([NAME, ['gauges', '1, 2,3']]).value?.gauges).toEqual([1, 2, 3])
    expect(post([NAME]).value?.gauges).toEqual([])
  })
  it('refuses what is not a number or out of range', () => {
    expect(post([NAME, ['gauges[0]', '1'], ['gauges[1]', 'x']]).error['gauges[1]']).toEqual(['Gauges must be a number'])
    expect(post([NAME, ['gauges[0]', '101']]).error['gauges[0]']).toEqual(['Gauges must be between 0 and 100'])
  })
})

describe('array sub-tables', () => {
  it('compiles its columns like top-level fields; rows keep their digit ids', () => {
    const r = post([NAME, ['items[0].id', '3'], ['items[0].product', 'p1'], ['items[0].qty', '2'], ['items[1].qty', '1']])
    expect(r.value?.items).toEqual([{ id: '3', product: 'p1', qty: 2 }, { qty: 1 }])
    expect(Object.keys((post([NAME, ['items[0].id', ''], ['items[0].qty', '1']]).value?.items as object[])[0])).toEqual(['qty'])
    expect(post([NAME]).value?.items).toEqual([])
  })
  it('checks each row: required columns, ranges, row ids', () => {
    const r = post([NAME, ['items[0].qty', '0'], ['items[1].product', 'p1'], ['items[2].id', 'a b'], ['items[2].qty', '1'], ['items[3].id', 'L1'], ['items[3].qty', '1']])
    expect(r.error).toEqual({
      'items[0].qty': ['Qty must be at least 1'],
      'items[1].qty': ['You must enter a Qty value'],
      'items[2].id': ['A row id is letters, digits, - or _ (at most 40)'],
    })
  })
  it('refuses two rows with one id (only a forged post has them), on the second', () => {
    expect(post([NAME, ['items[0].id', '5'], ['items[0].qty', '1'], ['items[1].id', '6'], ['items[1].qty', '1'], ['items[2].id', '5'], ['items[2].qty', '2']]).error).toEqual({
      'items[2].id': ['Items has two rows with the same id'],
    })
  })
  it('refuses a required sub-table with no rows with the required message', () => {
    const schema = normalizeSchema({ key: 'x_req', label: 'Req', items: [{ key: 'steps', label: 'Steps', type: 'array', required: true, array: [{ key: 'name', label: 'Name' }] }] })
    expect(post([], CREATE, schema).error).toEqual({ steps: ['You must enter a Steps value'] })
    expect(post([['steps[0].name', 'Cut']], CREATE, schema).value?.steps).toEqual([{ name: 'Cut' }])
  })
  it('refuses a read-only column posted in a row', () => {
    expect(post([NAME, ['items[0].qty', '1'], ['items[0].total', '999']]).error).toEqual({ 'items[0].total': ['Line Total is read-only'] })
  })
  it('refuses what is not a list of rows', () => {
    expect(parse({ name: 'x', items: 'rows' }).error.items).toEqual(['Items must be a list'])
    expect(parse({ name: 'x', items: ['row'] }).error['items.0']).toEqual(['Items must be a list'])
  })
})

describe('read-only fields and the server keys', () => {
  it('keeps read-only fields out of the editable section', () => {
    expect(editableFields(ALL).map((f) => f.key)).not.toContain('locked')
    expect(editableFields(ALL).map((f) => f.key)).not.toContain('serial')
  })
  it('refuses a forged post for a read-only field, even an empty one', () => {
    expect(post([NAME, ['locked', 'x']]).error).toEqual({ locked: ['Locked is read-only'] })
    expect(post([NAME, ['serial', 'x']]).error).toEqual({ serial: ['Serial is read-only'] })
    expect(post([NAME, ['locked', '']]).error).toEqual({ locked: ['Locked is read-only'] })
    expect(parse({ name: 'x', locked: null }).error).toEqual({ locked: ['Locked is read-only'] })
    expect(post([NAME]).value).not.toHaveProperty('locked')
  })
  it('refuses _id, ts, octs, and cts unless the user may edit it', () => {
    expect(post([NAME, ['_id', 'aaaaaaaaaaaaaaaaaaaaaaaa'], ['ts', '2026-01-01T00:00:00Z'], ['octs', '2020-01-01T00:00:00Z'], ['cts', '2020-01-01T00:00:00Z']]).error).toEqual({
      _id: ['Id is read-only'],
      ts: ['Updated is read-only'],
      octs: ['Original Created is read-only'],
      cts: ['Record Created is read-only'],
    })
  })
  it('lets admin and super change cts as a date (canEditCts)', () => {
    const admin: RecordSchemaOptions = { mode: 'update', canEditCts: true, timeZone: 'America/Los_Angeles' }
    expect(post([NAME, ['cts', '2026-01-15T12:30']], admin).value?.cts).toBe('2026-01-15T20:30:00.000Z')
    expect(post([NAME, ['cts', '2026-01-15T12:31']], admin).error.cts).toEqual(['Record Created must be on a 5-minute step, like 2:05 or 2:10'])
    expect(post([NAME, ['cts', 'soon']], admin).error.cts).toEqual(['Record Created must be a date and time'])
    expect(post([NAME, ['cts', '']], admin).error.cts).toEqual(['You must enter a Record Created value']) // cannot be cleared
    // Add shows Created blank: left blank on a new record, it is created now
    const adding: RecordSchemaOptions = { ...admin, mode: 'create' }
    expect(post([NAME, ['cts', '']], adding).value?.cts).toBeUndefined()
    expect(post([NAME, ['cts', '2026-01-15T12:30']], adding).value?.cts).toBe('2026-01-15T20:30:00.000Z')
    expect(post([NAME], admin).value).not.toHaveProperty('cts')
    expect(post([NAME, ['ts', '2026-01-01T00:00:00Z']], admin).error).toEqual({ ts: ['Updated is read-only'] })
  })
  it('drops keys the schema does not know', () => {
    expect(post([NAME, ['IsUsed', 'no'], ['role', 'super']]).value).not.toHaveProperty('role')
    expect(Object.keys(parse({ name: 'x', constructor: 'x', role: 'super' }).value ?? {}).sort()).toEqual(['alive', 'done', 'gauges', 'items', 'name', 'rooms', 'tags'])
  })
})

describe('modes and the real cultivation schemas', () => {
  it('applies the same rules to create and update (an update posts the whole form)', () => {
    const entries: [string, string][] = [['name', ''], ['count', '0'], ['weight.qty', '1'], ['weight.unit', 'kg']]
    expect(post(entries, { mode: 'update' }).error).toEqual(post(entries, CREATE).error)
  })
  it('fac_plants: mark_as_dead is a check, dead_weight a scale measure in g, oz or lb', () => {
    const r = post([
      ['tag', 'PLT-0001'], ['strain', 'abc'], ['room', 'def'], ['mark_as_dead', 'on'], ['waste_method', 'Compost'], ['mix_material', 'Soil'],
      ['dead_weight.qty', '250'], ['dead_weight.unit', 'g'],
    ], CREATE, PLANTS)
    expect(r.value).toMatchObject({ mark_as_dead: 'yes', waste_method: 'Compost', mix_material: 'Soil', dead_weight: { qty: 250, unit: 'g' } })
    const bad = post([['tag', 'PLT-0001'], ['strain', 'abc'], ['room', 'def'], ['dead_weight.qty', '2'], ['dead_weight.unit', 'kg'], ['waste_method', 'Burn it']], CREATE, PLANTS)
    expect(bad.error).toEqual({ 'dead_weight.unit': ['Dead Weight unit must be one of g, oz, lb'], waste_method: ['Choose a Waste Method from the list'] })
  })
  it('fac_plantings: every save rule of SPEC §5 answers at once, on each field it names, beside the field errors (issue 32 item 14)', () => {
    const r = post([['orig', '0'], ['type', 'Seed']], CREATE, PLANTINGS)
    const empty = 'The following fields can not be empty: Strain, Room, Tag Number'
    expect(r.error).toEqual({
      name: ['You must enter a Batch value'],
      strain: [empty],
      room: [empty],
      mtag: [empty],
      orig: ['Original Count must be between 1 and 100'],
    })
    const filled = post([['name', 'B1'], ['strain', 'st1'], ['room', 'r1'], ['mtag', 'T1'], ['orig', '101'], ['type', 'Seed']], CREATE, PLANTINGS)
    expect(filled.error).toEqual({ orig: ['Original Count must be between 1 and 100'] })
    const clone = post([['name', 'B1'], ['strain', 'st1'], ['room', 'r1'], ['mtag', 'T1'], ['orig', '12'], ['type', 'Clone']], CREATE, PLANTINGS)
    expect(clone.error).toEqual({ origin: ['The following fields can not be empty: Source Pkg'] })
    const ok = post([['name', 'B1'], ['strain', 'st1'], ['room', 'r1'], ['mtag', 'T1'], ['origin', 'P9'], ['orig', '12'], ['type', 'Clone']], CREATE, PLANTINGS)
    expect(ok).toMatchObject({ ok: true, value: { strain: 'st1', orig: 12, type: 'Clone', origin: 'P9' } })
  })
})

describe('conform', () => {
  it('getZodConstraint reads required, ranges, lengths, options and lists from the compiled schema', () => {
    const c = getZodConstraint(recordSchema(ALL, CREATE))
    expect(c.name).toMatchObject({ required: true, maxLength: 500 })
    expect(c.notes).toMatchObject({ required: false, maxLength: 20_000 })
    expect(c.count).toEqual({ required: false, min: 1, max: 100 })
    expect(c.stage).toMatchObject({ required: false, pattern: 'Cut|Rooting|Landfill \\(mixed\\)' })
    expect(c.tags).toMatchObject({ multiple: true })
    expect(c['weight.qty']).toMatchObject({ required: false, min: 0 })
    expect(c['weight.unit']).toMatchObject({ required: false, pattern: 'g|oz|lb' })
    expect(c['items[0].qty']).toMatchObject({ required: true, min: 1 })
    expect(c.items).toMatchObject({ required: false, multiple: true })
    // a required checkbox would have to be ticked: check fields never say required
    expect(c.done).toMatchObject({ required: false })
    const plants = getZodConstraint(recordSchema(PLANTS, CREATE))
    expect(plants.mark_as_dead).toMatchObject({ required: false })
    expect(plants.tag).toMatchObject({ required: true })
    const wet = getZodConstraint(recordSchema(op('fac_waste'), CREATE))
    expect(wet['weight.qty']).toMatchObject({ required: true, min: 0 })
  })
  it('a failed post replies with errors keyed by field name, ready for the form', () => {
    const submission = parseWithZod(form([['name', ''], ['weight.qty', 'x'], ['weight.unit', 'g']]), { schema: recordSchema(ALL, CREATE) })
    expect(submission.status).toBe('error')
    const reply = submission.reply()
    expect(reply.error).toMatchObject({ name: ['You must enter a Name value'], 'weight.qty': ['Weight must be a number'] })
  })
  it('conform and a plain parse of the same values agree', () => {
    const values = { name: 'x', plain: '0x10', price: '1.005', when: '2026-03-07T14:05', done: 'on', stage: 'Cut', notes: '' }
    const viaConform = post(Object.entries(values))
    const plain = parse(values)
    expect(viaConform.error).toEqual({ plain: ['Plain must be a number'], price: ['Price can have at most 2 decimals'] })
    expect(plain.error).toEqual({ plain: ['Plain must be a number'], price: ['Price can have at most 2 decimals'] })
    const ok = { ...values, plain: '16', price: '1.01' }
    expect(post(Object.entries(ok)).value).toEqual(parse(ok).value)
  })
})

describe('formValuesOf', () => {
  const stored = {
    _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', cts: '2026-01-15T20:33:10.000Z', tag: 'PLT-0001', strain: 'abc', room: 'def', phase: 'Vegetative',
    planted: '2026-01-15T20:30:00.000Z', mark_as_dead: 'yes', waste_method: 'Compost', mix_material: 'Soil', dead_weight: { qty: 250, unit: 'g' },
    notes: '<b>bold</b>', alive: 'no',
  }
  it('turns a stored record into input values: strings, nested measure, yes/no, datetime-local in the zone', () => {
    const v = formValuesOf(PLANTS, stored, { timeZone: 'America/Los_Angeles', canEditCts: true })
    expect(v).toMatchObject({
      tag: 'PLT-0001', planted: '2026-01-15T12:30', dead_weight: { qty: '250', unit: 'g' }, mark_as_dead: 'yes', notes: '<b>bold</b>', phaseDate: '',
      cts: '2026-01-15T12:33:10',
    })
    expect(v).not.toHaveProperty('_id')
    expect(formValuesOf(PLANTS, {}).dead_weight).toEqual({ qty: '', unit: 'g' })
  })
  it('round-trips through a form post', () => {
    const v = formValuesOf(PLANTS, stored, { timeZone: 'America/Los_Angeles' })
    const fd = new FormData()
    for (const [k, x] of Object.entries(v)) {
      if (x && typeof x === 'object') for (const [sub, y] of Object.entries(x)) fd.append(`${k}.${sub}`, String(y))
      else fd.append(k, String(x))
    }
    const s = parseWithZod(fd, { schema: recordSchema(PLANTS, { mode: 'update', timeZone: 'America/Los_Angeles' }) })
    expect(s.status).toBe('success')
    const { _id, cts, ...rest } = stored
    expect(s.status === 'success' && s.value).toMatchObject(rest)
  })
  it('shows a stored time exactly (seconds, milliseconds when there are any), and keeps rows with their ids', () => {
    expect(toLocalInput('2026-03-07T14:03:59Z')).toBe('2026-03-07T14:03:59')
    expect(toLocalInput('2026-03-07T14:03:59.250Z')).toBe('2026-03-07T14:03:59.250')
    expect(toLocalInput('2026-03-07T14:05:00.000Z')).toBe('2026-03-07T14:05')
    expect(toLocalInput('nonsense')).toBe('')
    expect(formValuesOf(ALL, { items: [{ id: 2, qty: 3, total: 9, product: 'p' }], tags: 'a', gauges: [1, 2] })).toMatchObject({
      items: [{ id: '2', qty: '3', product: 'p' }], tags: ['a'], gauges: ['1', '2'], done: 'no', price: '',
    })
  })
})

describe('a date-time the user did not change (issue 32)', () => {
  const zone = 'America/Los_Angeles'
  const stored = { wasteDate: '2026-11-20T16:41:24.000Z', cts: '2026-11-20T16:38:47.123Z' }
  const waste = op('fac_waste')
  const post = (entries: Array<[string, string]>, opts: Partial<RecordSchemaOptions> = {}) =>
    parseWithZod(form(entries), { schema: recordSchema(waste, { mode: 'update', timeZone: zone, canEditCts: true, stored, ...opts }) })
  const shown = formValuesOf(waste, stored, { timeZone: zone, canEditCts: true })
  const base: Array<[string, string]> = [['method', 'Compost'], ['mix_material', 'Soil'], ['weight.qty', '2'], ['weight.unit', 'g']]

  it('is saved back exactly as stored, off the picker step or not', () => {
    expect(shown.wasteDate).toBe('2026-11-20T08:41:24')
    expect(shown.cts).toBe('2026-11-20T08:38:47.123')
    const s = post([...base, ['wasteDate', String(shown.wasteDate)], ['cts', String(shown.cts)]])
    expect(s.status).toBe('success')
    expect(s.status === 'success' && s.value).toMatchObject(stored)
  })
  it('a changed one is still held to the 5-minute step, and a step value saves', () => {
    const s = post([...base, ['wasteDate', '2026-11-20T08:42:24']])
    expect(s.status).toBe('error')
    expect(s.status === 'error' && s.error?.wasteDate).toEqual([FORM_MSG.step('Date')])
    const ok = post([...base, ['wasteDate', '2026-11-20T08:45']])
    expect(ok.status === 'success' && ok.value.wasteDate).toBe('2026-11-20T16:45:00.000Z')
  })
  it('without the stored record (a new one) the step applies to every value', () => {
    expect(post([...base, ['wasteDate', String(shown.wasteDate)]], { mode: 'create', stored: undefined }).status).toBe('error')
  })
})

it('lists every field type of the table schema in the test schema', async () => {
  const { FIELD_TYPES } = await import('#app/schemas/table-schema')
  expect(new Set(ALL.fields.map((f) => f.type))).toEqual(new Set(FIELD_TYPES))
  expect(FORM_MSG.required('X')).toBe('You must enter a X value')
})

describe('the generic record fields every table takes (SPEC §3)', () => {
  const post = (entries: [string, string][], opts: Partial<RecordSchemaOptions> = {}) => parseWithZod(form([['tag', 'T-1'], ['strain', 's1'], ['room', 'r1'], ...entries]), { schema: recordSchema(PLANTS, { mode: 'update', ...opts }) })
  it('the form posts Active as a hidden "no" then the box: the last value is the choice', () => {
    const off = post([['IsUsed', 'no']])
    expect(off.status).toBe('success')
    expect((off as { value: Record<string, unknown> }).value.IsUsed).toBe('no')
    const on = post([['IsUsed', 'no'], ['IsUsed', 'yes']])
    expect((on as { value: Record<string, unknown> }).value.IsUsed).toBe('yes')
    const none = post([])
    expect((none as { value: Record<string, unknown> }).value).not.toHaveProperty('IsUsed')
  })
  it('the row locks are refused from a user and taken from admin and super', () => {
    const user = post([['ed', 'no'], ['delete', 'no']])
    expect(user.status).toBe('error')
    const errors = (user as { error?: Record<string, string[] | null> }).error
    expect(errors?.ed).toEqual([FORM_MSG.lockAdminOnly('Editable')])
    expect(errors?.delete).toEqual([FORM_MSG.lockAdminOnly('Deletable')])
    const admin = post([['ed', 'no'], ['delete', 'no'], ['delete', 'yes']], { canLockRows: true })
    expect(admin.status).toBe('success')
    expect((admin as { value: Record<string, unknown> }).value).toMatchObject({ ed: 'no', delete: 'yes' })
  })
  it('the form shows Active (and the locks for admin and super) as stored, absent meaning yes', () => {
    expect(formValuesOf(PLANTS, { IsUsed: 'no', ed: 'no' })).toMatchObject({ IsUsed: 'no' })
    expect(formValuesOf(PLANTS, { ed: 'no' })).not.toHaveProperty('ed')
    expect(formValuesOf(PLANTS, { ed: 'no' }, { canLockRows: true })).toMatchObject({ IsUsed: 'yes', ed: 'no', delete: 'yes' })
  })
})
