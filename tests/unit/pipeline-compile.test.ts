/**
 * The pipeline compiler's refusals (decision 010): every stage, operator, field name or value it
 * does not support exactly is a BAD_INPUT (400) whose message names it; and what it accepts
 * becomes SQL whose only user text is in the parameters.
 */
import { compilePipeline } from '#app/api/pipeline/compile'
import { translateRegex } from '#app/api/pipeline/regex'
import { badInput, isAppError } from '#app/utils/errors'

const tableFor = (c: string) => {
  if (c !== 'other') throw badInput(`unknown table ${c}`)
  return 'c_other'
}
const compile = (p: unknown) => compilePipeline('c_things', 'org-a', p, { tableFor, maxRows: 100 })
function refused(p: unknown): string {
  try {
    compile(p)
  } catch (e) {
    expect(isAppError(e) && e.code === 'BAD_INPUT', String(e)).toBe(true)
    return (e as Error).message
  }
  throw new Error(`accepted ${JSON.stringify(p)}`)
}

describe('refusals name what they refuse', () => {
  it.each(['$where', '$function', '$accumulator', '$out', '$merge', '$expr', '$graphLookup', '$unionWith', '$replaceRoot', '$sample'])('the stage %s', (stage) => {
    expect(refused([{ [stage]: {} }])).toContain(stage)
  })

  it.each([
    [{ $where: 'sleep(1000)' }, '$where'],
    [{ $expr: { $gt: ['$a', 1] } }, '$expr'],
    [{ $text: { $search: 'x' } }, '$text'],
    [{ a: { $where: '1' } }, '$where'],
    [{ a: { $elemMatch: { b: 1 } } }, '$elemMatch'],
    [{ a: { $size: 2 } }, '$size'],
    [{ a: { $type: 'string' } }, '$type'],
    [{ a: { $function: {} } }, '$function'],
  ].map(([q, n]) => [n, q] as const))('the query operator %s', (name, q) => {
    expect(refused([{ $match: q }])).toContain(name)
  })

  it.each([
    [{ $group: { _id: null, x: { $accumulator: {} } } }, '$accumulator'],
    [{ $group: { _id: null, x: { $push: '$a' } } }, '$push'],
    [{ $addFields: { x: { $function: { body: 'return 1' } } } }, '$function'],
    [{ $addFields: { x: { $dateToString: {} } } }, '$dateToString'],
    [{ $addFields: { x: '$$ROOT' } }, '$$ROOT'],
    [{ $project: { x: { $where: '1' } } }, '$where'],
  ].map(([st, n]) => [n, st] as const))('the expression operator %s', (name, stage) => {
    expect(refused([stage])).toContain(name)
  })

  it.each(['a b', 'a;drop table x', "a'b", 'a"b', '$a', 'a..b', '.a', 'a.', '1a', 'a-b', 'a.$', 'é', 'a.0'])('the field name %j in $match, $sort, $project, $group, $unwind', (f) => {
    const shown = JSON.stringify(f)
    expect(refused([{ $match: { [f]: 1 } }])).toContain(shown.slice(1, -1).startsWith('$') ? f : shown)
    expect(refused([{ $sort: { [f]: 1 } }])).toContain(shown)
    expect(refused([{ $project: { [f]: 1 } }])).toContain(shown)
    expect(refused([{ $group: { _id: `$${f}` } }])).toMatch(/^\$group _id: .*(not a plain field path|variables)/)
    expect(refused([{ $unwind: `$${f}` }])).toMatch(/^\$unwind: .*not a plain field path/)
    expect(refused([{ $count: f }])).toContain('$count')
  })

  it('values it cannot compare exactly', () => {
    expect(refused([{ $match: { a: { b: 1 } } }])).toContain('whole object')
    expect(refused([{ $match: { a: [1, 2] } }])).toContain('whole array')
    expect(refused([{ $match: { a: { $gt: true } } }])).toContain('$gt')
    expect(refused([{ $match: { a: { $lt: null } } }])).toContain('$lt')
    expect(refused([{ $match: { a: { $in: [{ x: 1 }] } } }])).toContain('$in')
    expect(refused([{ $match: { a: { $in: 'x' } } }])).toContain('$in')
    expect(refused([{ $match: { a: { $regex: 'a', $options: 'm' } } }])).toContain('$options')
  })

  it('limits: stages, depth, $skip/$limit, $facet placement and nesting, $lookup targets', () => {
    expect(refused(Array.from({ length: 41 }, () => ({ $match: {} })))).toContain('more than 40 stages')
    let deep: unknown = 1
    for (let i = 0; i < 20; i++) deep = { $and: [deep] }
    expect(refused([{ $match: deep }])).toContain('levels deep')
    expect(refused([{ $limit: 0 }])).toContain('$limit')
    expect(refused([{ $skip: -1 }])).toContain('$skip')
    expect(refused([{ $limit: '5; DROP TABLE x' }])).toContain('$limit')
    expect(refused([{ $facet: { a: [{ $facet: {} }] } }])).toContain('$facet')
    expect(refused([{ $facet: { a: [] } }, { $match: {} }])).toContain('$facet must be the last stage')
    expect(refused([{ $lookup: { from: 'c_x; drop', localField: 'a', foreignField: 'b', as: 'j' } }])).toContain('unknown table')
    expect(refused([{ $lookup: { from: 'other', localField: 'a', foreignField: 'b', as: 'j', pipeline: [] } }])).toContain('pipeline')
    expect(refused({ $match: {} })).toContain('array')
    expect(refused([{ $match: {}, $sort: { a: 1 } }])).toContain('exactly one key')
  })

  it('regex: the supported subset is translated, the rest refused', () => {
    expect(translateRegex('^a.b$', 'i')).toEqual({ pattern: '^a[^\n\r\u2028\u2029]b$', caseless: true })
    expect(translateRegex('\\d+\\.x[a-c\\d]', undefined).pattern).toBe('[0-9]+\\.x[a-c0-9]')
    expect(translateRegex("it's; DROP", undefined).pattern).toBe("it\\'s\\; DROP")
    for (const bad of ['(?=a)', '(?<n>a)', 'a{2}', '\\1', '\\b', '\\s', '*a', '(a', 'a)', '[a', '[]', 'x'.repeat(201), '😀']) {
      expect(() => translateRegex(bad, undefined), bad).toThrow(/\$regex/)
    }
  })
})

describe('what the SQL text holds', () => {
  it('user values are parameters; the organisation is $1 on every table read', () => {
    const evil = "x'); DROP TABLE c_things; --"
    const { sql, params } = compile([
      { $match: { name: evil, s: { $regex: "x'; DROP TABLE c_things; --" }, n: { $in: [evil] }, d: { $gte: evil } } },
      { $lookup: { from: 'other', localField: 'a', foreignField: 'b', as: 'j' } },
      { $addFields: { x: evil, y: { $concat: ['$name', evil] } } },
      { $sort: { name: -1 } },
      { $limit: 5 },
    ])
    expect(sql).not.toContain('DROP')
    expect(params[0]).toBe('org-a')
    expect(params.filter((p) => typeof p === 'string' && p.includes('DROP')).length).toBeGreaterThanOrEqual(5)
    const reads = sql.match(/FROM c_\w+ t WHERE t\.org = \$1/g) ?? []
    expect(reads).toHaveLength(2) // the collection and the $lookup target
    expect(sql.match(/FROM c_\w+/g)).toHaveLength(2) // and no other table read
  })
})

describe('what is pushed into the table read (decision 010)', () => {
  const page = [
    { $match: { IsUsed: { $ne: 'no' }, room: { $regex: 'flower', $options: 'i' } } },
    { $sort: { planted: -1, _id: -1 } },
    { $facet: { data: [{ $skip: 0 }, { $limit: 20 }], total: [{ $count: 'count' }] } },
  ]

  it('a leading $match on stored fields is a condition on t.doc in the table read', () => {
    const { sql } = compile(page)
    // a plain-word $regex (the search box) is a substring test: ILIKE '%flower%'
    expect(sql).toMatch(/^WITH s0 AS NOT MATERIALIZED \(SELECT t\.id COLLATE "C" AS n, .* FROM c_things t WHERE t\.org = \$1 AND .*\(t\.doc ->> 'room'\) ILIKE \$\d+::text/)
  })

  it('a $regex with any regex syntax stays a regex; plain words are (I)LIKE with the same meaning', () => {
    const where = (re: string, options?: string) => compilePipeline('c_things', 'o1', [{ $match: { room: { $regex: re, ...(options ? { $options: options } : {}) } } }], { tableFor: () => '', maxRows: 100 })
    expect(where('fl.wer', 'i').sql).toContain("(t.doc ->> 'room') ~* $")
    expect(where('Flower 1').sql).toContain("(t.doc ->> 'room') LIKE $")
    expect(where('Flower 1').params).toContain('%Flower 1%')
    expect(where('50%').sql).toContain("(t.doc ->> 'room') ~ $")
  })

  it('the table page reads its rows in the order of (doc ->> key) COLLATE "C" and counts without documents', () => {
    const { sql } = compile(page)
    expect(sql).toContain(`(t.doc ->> 'planted') COLLATE "C" AS k`)
    expect(sql).toMatch(/ORDER BY x\.k DESC, .* LIMIT \$\d+::bigint/)
    expect(sql).toMatch(/SELECT count\(\*\) AS total, count\(\*\) FILTER \(WHERE jsonb_typeof\(t\.doc -> 'planted'\) IS DISTINCT FROM 'string'\) AS other FROM c_things t WHERE t\.org = \$1 AND /)
    expect(sql).toMatch(/jsonb_build_object\('count', \(SELECT total FROM s\d+\)\)/)
    // every read of the table is the organisation's
    expect(sql.match(/FROM c_things t WHERE/g)?.length).toBe(sql.match(/FROM c_things t WHERE t\.org = \$1/g)?.length)
  })

  it('a $match on _id, cts or ts, and a $sort on them or on a dotted path, stay on the document', () => {
    for (const p of [[{ $match: { _id: 'a' } }], [{ $match: { $or: [{ n: 1 }, { cts: { $gt: '2024' } }] } }]]) {
      expect(compile(p).sql).toMatch(/^WITH s0 AS NOT MATERIALIZED \(SELECT .* FROM c_things t WHERE t\.org = \$1\),\ns1 AS \(SELECT n, d FROM s0 WHERE/)
    }
    for (const s of [{ _id: -1 }, { cts: 1 }, { 'meta.x': 1 }]) expect(compile([{ $sort: s }, { $limit: 5 }]).sql).not.toContain('AS other')
    expect(compile([{ $sort: { name: 1 } }]).sql).not.toContain('AS other') // no bounded reader: the plain $sort
  })
})
