/**
 * POST /misc/dbops?c={table}&op=pipe through the route's action with real signed tokens on the
 * real database: the table-page shape of SPEC §7 (pages and total[0].count), who may call it,
 * refused pipelines (400 in the envelope), injection attempts that change nothing, another
 * organisation's rows never returned (base read and $lookup), the body limit and, on PostgreSQL,
 * the statement timeout.
 */
import fs from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import fc from 'fast-check'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { action, loader } from '#app/routes/misc.dbops'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, TEST_DB, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'dbops-test' }
let t: TestDatabase
let env: Env
const ctx = () => ({ database: t, env, logger: pino({ level: 'silent' }), requestId: 'test', clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const token = (uid: string, org: string) => signAccessToken(env.SESSION_SECRET, { sub: uid, orig: uid, org, role: 'user' })
const GREEN = () => token('u-green', 'greenleaf')
const HARBOR = () => token('u-harbor', 'harbor')

async function call(query: string, body: unknown, tok?: string, headers: Record<string, string> = {}) {
  const res = await action({
    request: new Request(`http://canopy.test/misc/dbops${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(tok ? { 'x-access-token': tok } : {}), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    context: ctx(),
    params: {},
  })
  return { status: res.status, body: (await res.json()) as any }
}
const pipe = (c: string, body: unknown, tok: string | undefined = GREEN()) => call(`?c=${encodeURIComponent(c)}&op=pipe`, body, tok)
const rowCounts = async () => (await t.db.query<{ n: number }>(`SELECT (SELECT count(*) FROM c_fac_plants) + (SELECT count(*) FROM c_set_rooms) AS n`)).rows[0].n

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), PIPELINE_TIMEOUT_MS: '300', LOG_LEVEL: 'silent' })
  await ensurePlatform(t, env)
  for (const [uid, org] of [['u-green', 'greenleaf'], ['u-harbor', 'harbor']] as const)
    await t.store.insert(actor, 'auth', 'users', { _id: uid, uid, email: `${uid}@x.test`, role: 'user', org, web: 'yes', props: { facilities: [org], modules: { [org]: null } } })
  const items = Array.from({ length: 25 }, (_, i) => ({ _id: `g${String(i).padStart(3, '0')}`, name: `Item ${i}`, n: i, IsUsed: i % 5 === 0 ? 'no' : 'yes', room: `r${i % 3}`, cts: new Date(Date.UTC(2024, 0, 1 + i)).toISOString() }))
  await t.store.insertMany(actor, 'greenleaf', 'fac_plants', items)
  await t.store.insertMany(actor, 'greenleaf', 'set_rooms', [0, 1, 2].map((i) => ({ _id: `gr${i}`, code: `r${i}`, label: `Green room ${i}` })))
  // harbor: the same ids of rooms, names that would match every search
  await t.store.insertMany(actor, 'harbor', 'fac_plants', Array.from({ length: 5 }, (_, i) => ({ _id: `h${i}`, name: `Item SECRET ${i}`, n: i, IsUsed: 'yes', room: 'r0', cts: new Date(Date.UTC(2024, 0, 1 + i)).toISOString() })))
  await t.store.insertMany(actor, 'harbor', 'set_rooms', [0, 1, 2].map((i) => ({ _id: `hr${i}`, code: `r${i}`, label: `SECRET room ${i}` })))
  await t.store.insertMany(actor, 'harbor', 'fac_harvests', [{ _id: 'ho1', label: 'SECRET' }])
})
afterAll(async () => {
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const tablePage = (skip: number, limit: number, search = 'item') => [
  { $match: { IsUsed: { $ne: 'no' } } },
  { $match: { cts: { $gte: '2024-01-03T00:00:00.000Z', $lt: '2024-02-01T00:00:00.000Z' } } },
  { $match: { $or: [{ name: { $regex: search, $options: 'i' } }, { room: { $regex: search, $options: 'i' } }] } },
  { $sort: { n: -1 } },
  { $facet: { data: [{ $skip: skip }, { $limit: limit }], total: [{ $count: 'count' }] } },
]

describe(`POST /misc/dbops (${TEST_DB})`, () => {
  it('answers the table-page shape: data, total[0].count and pages in the first element', async () => {
    // items 2..24 by date, without every fifth (IsUsed no): 5, 10, 15, 20 → 23 - 4 = 19
    const r = await pipe('fac_plants', tablePage(10, 5))
    expect(r.status).toBe(200)
    expect(r.body).toHaveLength(1)
    expect(r.body[0].total).toEqual([{ count: 19 }])
    expect(r.body[0].pages).toBe(4) // ceil(19 / 5)
    expect(r.body[0].data.map((d: { n: number }) => d.n)).toEqual([12, 11, 9, 8, 7])
    expect(r.body[0].data[0]).toMatchObject({ _id: 'g012', name: 'Item 12', cts: '2024-01-13T00:00:00.000Z' })
    const none = await pipe('fac_plants', tablePage(0, 10, 'no such thing'))
    expect(none.body).toEqual([{ data: [], total: [{ count: 0 }], pages: 0 }])
  })

  it("never overwrites a caller's facet named pages (SPEC §7's row facet): the count goes under a name the caller did not use", async () => {
    const facetPages = (facet: Record<string, unknown[]>) => [{ $match: { IsUsed: { $ne: 'no' } } }, { $sort: { n: 1 } }, { $facet: facet }]
    const r = await pipe('fac_plants', facetPages({ pages: [{ $skip: 0 }, { $limit: 5 }], total: [{ $count: 'count' }] }))
    expect(r.status).toBe(200)
    expect(r.body).toHaveLength(1)
    expect(r.body[0].pages.map((d: { n: number }) => d.n)).toEqual([1, 2, 3, 4, 6])
    expect(r.body[0].total).toEqual([{ count: 20 }])
    expect(r.body[0].pageCount).toBe(4)
    expect(Object.keys(r.body[0]).sort()).toEqual(['pageCount', 'pages', 'total'])
    // and when the caller used pageCount as well, the next free name
    const both = await pipe('fac_plants', facetPages({ pages: [{ $limit: 3 }], pageCount: [{ $count: 'count' }] }))
    expect(both.body[0].pages).toHaveLength(3)
    expect(both.body[0].pageCount).toEqual([{ count: 20 }])
    expect(both.body[0].pageCount2).toBe(7)
  })

  it('plain pipelines answer their documents; $lookup joins the same organisation only', async () => {
    const r = await pipe('fac_plants', [{ $match: { n: { $lte: 2 } } }, { $lookup: { from: 'set_rooms', localField: 'room', foreignField: 'code', as: 'rooms' } }, { $project: { n: 1, 'rooms.label': 1 } }])
    expect(r.status).toBe(200)
    expect(r.body).toEqual([
      { _id: 'g000', n: 0, rooms: [{ label: 'Green room 0' }] },
      { _id: 'g001', n: 1, rooms: [{ label: 'Green room 1' }] },
      { _id: 'g002', n: 2, rooms: [{ label: 'Green room 2' }] },
    ])
    const grouped = await pipe('fac_plants', [{ $group: { _id: '$room', c: { $sum: 1 }, top: { $max: '$n' } } }, { $sort: { _id: 1 } }])
    expect(grouped.body).toEqual([
      { _id: 'r0', c: 9, top: 24 },
      { _id: 'r1', c: 8, top: 22 },
      { _id: 'r2', c: 8, top: 23 },
    ])
  })

  it("never returns another organisation's rows: base read, $lookup, counts, a table only it uses", async () => {
    const all = await pipe('fac_plants', [{ $lookup: { from: 'set_rooms', localField: 'room', foreignField: 'code', as: 'rooms' } }])
    expect(all.body).toHaveLength(25)
    expect(JSON.stringify(all.body)).not.toContain('SECRET')
    expect((await pipe('fac_plants', [{ $match: { name: { $regex: 'SECRET' } } }])).body).toEqual([])
    expect((await pipe('fac_plants', [{ $match: { org: 'harbor' } }])).body).toEqual([])
    expect((await pipe('fac_plants', [{ $count: 'n' }])).body).toEqual([{ n: 25 }])
    expect((await pipe('fac_harvests', [])).body).toEqual([])
    expect((await pipe('fac_plants', [{ $lookup: { from: 'fac_harvests', localField: 'x', foreignField: 'y', as: 'j' } }, { $unwind: '$j' }])).body).toEqual([])
    // and harbor's token sees harbor's rows only
    const h = await pipe('fac_plants', [{ $lookup: { from: 'set_rooms', localField: 'room', foreignField: 'code', as: 'rooms' } }], HARBOR())
    expect(h.body.map((d: { _id: string }) => d._id)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4'])
    expect(h.body.flatMap((d: { rooms: Array<{ _id: string }> }) => d.rooms.map((x) => x._id))).toEqual(['hr0', 'hr0', 'hr0', 'hr0', 'hr0'])
  })

  it('401 without a token or with a forged one; the envelope, never a redirect', async () => {
    const none = await call('?c=fac_plants&op=pipe', [])
    expect(none.status).toBe(401)
    expect(none.body.errors[0].code).toBe('UNAUTHENTICATED')
    const forged = signAccessToken('another-secret-of-at-least-32-characters!!', { sub: 'u-green', orig: 'u-green', org: 'harbor', role: 'user' })
    expect((await pipe('fac_plants', [], forged)).status).toBe(401)
  })

  it('400 with a message naming what is refused', async () => {
    const cases: Array<[unknown, string]> = [
      [[{ $where: 'sleep(10)' }], '$where'],
      [[{ $function: {} }], '$function'],
      [[{ $out: 'x' }], '$out'],
      [[{ $merge: 'x' }], '$merge'],
      [[{ $match: { $expr: { $eq: ['$a', 1] } } }], '$expr'],
      [[{ $match: { n: { $foo: 1 } } }], '$foo'],
      [[{ $sort: { 'n; DROP TABLE c_fac_plants': 1 } }], 'not a plain field path'],
      [{ not: 'an array' }, 'array'],
    ]
    for (const [body, name] of cases) {
      const r = await pipe('fac_plants', body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.errors[0].code).toBe('BAD_INPUT')
      expect(r.body.errors[0].message).toContain(name)
    }
    expect((await call('?c=fac_plants&op=drop', [], GREEN())).status).toBe(400)
    expect((await call('?c=fac_plants', [], GREEN())).body.errors[0].message).toContain('op')
    expect((await call('?c=fac_plants&op=pipe', '[{"$match":', GREEN())).body.errors[0].message).toContain('JSON')
    const get = await loader()
    expect(get.status).toBe(400)
    // a $lookup into a table that does not exist: 404 naming it, as /dt/v1 answers
    const lookup = await pipe('fac_plants', [{ $lookup: { from: 'no_such_table', localField: 'a', foreignField: 'b', as: 'j' } }])
    expect(lookup.status).toBe(404)
    expect(lookup.body.errors[0].message).toContain('no_such_table')
  })

  it('reads only tables the caller\'s screens show, as /dt/v1 does: the base table and every $lookup', async () => {
    await t.store.insert(actor, 'auth', 'users', { _id: 'u-cul', uid: 'u-cul', email: 'u-cul@x.test', role: 'user', org: 'greenleaf', web: 'yes', props: { facilities: ['greenleaf'], modules: { greenleaf: ['cul'] } } })
    const cul = token('u-cul', 'greenleaf')
    expect((await pipe('fac_plants', [{ $count: 'n' }], cul)).status).toBe(200)
    // rooms are a Settings table: not this grower's
    const rooms = await pipe('set_rooms', [{ $count: 'n' }], cul)
    expect(rooms.status).toBe(403)
    const viaLookup = await pipe('fac_plants', [{ $lookup: { from: 'set_rooms', localField: 'room', foreignField: 'code', as: 'r' } }], cul)
    expect(viaLookup.status).toBe(403)
    // platform tables are the platform's, not a facility token's
    expect((await pipe('users', [{ $count: 'n' }], GREEN())).status).toBe(403)
  })

  it('injection attempts in table names, field names, values, sort keys and regexes change nothing', async () => {
    const before = await rowCounts()
    const evil = "x'); DELETE FROM c_fac_plants; --"
    for (const c of ["fac_plants; DROP TABLE c_fac_plants", 'fac_plants"', "fac_plants' OR '1'='1", '../fac_plants', 'PIPE_ITEMS', 'c_fac_plants']) {
      const r = await pipe(c, [])
      expect([400, 404], c).toContain(r.status)
    }
    for (const body of [
      [{ $match: { [evil]: 1 } }],
      [{ $sort: { [evil]: 1 } }],
      [{ $project: { [evil]: 1 } }],
      [{ $group: { _id: `$${evil}` } }],
      [{ $count: evil }],
      [{ $match: { name: { $regex: `${evil})` } } }],
      [{ $limit: evil }],
    ]) {
      const r = await pipe('fac_plants', body)
      expect(r.status, JSON.stringify(body)).toBe(400)
    }
    // as values they are only values: no match, no error
    for (const body of [[{ $match: { name: evil } }], [{ $match: { name: { $in: [evil] } } }], [{ $match: { name: { $regex: "x'; DELETE FROM c_fac_plants; --" } } }], [{ $addFields: { x: evil } }, { $match: { x: 'nope' } }]]) {
      const r = await pipe('fac_plants', body)
      expect(r.status, JSON.stringify(body)).toBe(200)
      expect(r.body).toEqual([])
    }
    expect(await rowCounts()).toBe(before)
  })

  it('a body over the limit is 413 before it is read', async () => {
    const r = await call('?c=fac_plants&op=pipe', '[]', GREEN(), { 'content-length': String(50 * 1024 * 1024) })
    expect(r.status).toBe(413)
    const big = await pipe('fac_plants', [{ $match: { name: { $in: Array.from({ length: 30_000 }, (_, i) => `name ${i}`) } } }])
    expect(big.status).toBe(413)
  })

  it('errors the data raises while a stage runs are 400 (MongoDB raises them too)', async () => {
    const r = await pipe('fac_plants', [{ $addFields: { x: { $concat: ['$name', '$n'] } } }])
    expect(r.status).toBe(400)
    expect(r.body.errors[0].message).toContain('$concat')
    const z = await pipe('fac_plants', [{ $addFields: { x: { $divide: ['$n', 0] } } }])
    expect(z.status).toBe(400)
  })

  // PGlite runs inside this process and cannot cancel a statement (decision 010)
  it.runIf(TEST_DB === 'pg')('a pipeline that would scan for too long is stopped by the statement timeout (503)', async () => {
    await t.store.insertMany(actor, 'greenleaf', 'set_rooms', Array.from({ length: 4000 }, (_, i) => ({ _id: `bulk${i}`, code: `b${i % 50}`, label: `bulk ${i}` })))
    const started = Date.now()
    const r = await call('?c=set_rooms&op=pipe', [{ $lookup: { from: 'set_rooms', localField: 'code', foreignField: 'code', as: 'same' } }, { $count: 'n' }], GREEN())
    expect(r.status).toBe(503)
    expect(r.body.errors[0]).toMatchObject({ code: 'UNAVAILABLE' })
    expect(r.body.errors[0].message).toContain('longer than 0.3 s')
    expect(Date.now() - started).toBeLessThan(5000)
    // the connection is fine afterwards
    expect((await pipe('fac_plants', [{ $count: 'n' }])).body).toEqual([{ n: 25 }])
  })
})

describe(`POST /misc/dbops fuzz (${TEST_DB})`, () => {
  it('random JSON and random near-pipelines: always 2xx or 4xx with the envelope, never a 500, and nothing changes', async () => {
    const before = await rowCounts()
    const json = fc.jsonValue({ maxDepth: 4 })
    const op = fc.constantFrom('$match', '$sort', '$skip', '$limit', '$project', '$addFields', '$set', '$group', '$count', '$unwind', '$lookup', '$facet', '$where', '$out', '$merge', '$function', '$expr', '$regex', '$in', '$gt', '$ne', '$exists', 'name', 'n', 'room', '_id', 'a.b', '$', '')
    const stage = fc.dictionary(op, fc.oneof(json, fc.dictionary(op, json, { maxKeys: 3 })), { minKeys: 0, maxKeys: 2 })
    const body = fc.oneof(json, fc.array(stage, { maxLength: 5 }), fc.array(json, { maxLength: 3 }))
    const table = fc.constantFrom('fac_plants', 'set_rooms', 'fac_harvests', 'users', 'nope', "x'y", '')
    await fc.assert(
      fc.asyncProperty(table, body, fc.constantFrom('green', 'harbor'), async (c, b, who) => {
        const r = await pipe(c, b, who === 'green' ? GREEN() : HARBOR())
        expect(r.status, JSON.stringify(b).slice(0, 200)).toBeGreaterThanOrEqual(200)
        expect(r.status, JSON.stringify(b).slice(0, 200)).toBeLessThan(500)
        if (r.status >= 400) {
          expect(Array.isArray(r.body.errors) && r.body.errors.length > 0).toBe(true)
          for (const e of r.body.errors) expect(typeof e.code === 'string' && typeof e.message === 'string').toBe(true)
        }
      }),
      { numRuns: 400, seed: 11 },
    )
    expect(await rowCounts()).toBe(before)
  }, 180_000)
})

