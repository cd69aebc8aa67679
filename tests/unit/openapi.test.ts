/**
 * The OpenAPI document (app/api/openapi): valid OpenAPI 3.1 with valid JSON Schema 2020-12 inside;
 * every API route file has a path (so a new route without documentation fails here); the error
 * envelope of every code; one record schema per shipped table that agrees with the zod schema
 * records are validated with; the reference page's view of it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { buildOpenApiDocument, openApiDocument } from '#app/api/openapi/document.server'
import { OPERATIONS } from '#app/api/openapi/operations'
import { describeSchema, referenceView, tableView } from '#app/api/openapi/reference'
import { shippedTables } from '#app/api/openapi/tables.server'
import { recordSchema } from '#app/forms/record-schema'
import { STATUS_OF } from '#app/utils/errors'
import { ajvFor, schemasIn, validateOpenApi } from '#tests/helpers/openapi'

const { doc } = openApiDocument()
const ROUTES = path.resolve(__dirname, '../../app/routes')

/** A Remix flat-route file name → its OpenAPI path template (`dt.v1.$table.$id.ts` → `/dt/v1/{table}/{id}`). */
function routePath(file: string): string {
  const segments = file.replace(/\.tsx?$/, '').split(/\.(?![^[]*\])/)
  return '/' + segments.filter((s) => s !== '_index').map((s) => s.replace(/_$/, '').replace(/^\$(.+)$/, '{$1}').replace(/\[(.*?)\]/g, '$1')).join('/')
}

/** The API's route files: resource routes (no page component) under the API's prefixes. */
const API_PREFIXES = ['auth.', 'dt.v1.', 'misc.', 'files.', 'getfiles.', 'ota.', 'api.']
const apiRouteFiles = fs
  .readdirSync(ROUTES)
  .filter((f) => /\.tsx?$/.test(f) && API_PREFIXES.some((p) => f.startsWith(p)))
  .filter((f) => !/export default/.test(fs.readFileSync(path.join(ROUTES, f), 'utf8')))

describe('the document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const r = await validateOpenApi(doc)
    expect(r.errors).toBeUndefined()
    expect(r).toMatchObject({ valid: true, version: '3.1' })
    expect(doc.openapi).toBe('3.1.0')
  }, 30_000) // the validator is CPU-heavy: a loaded machine needs more than 5 s

  it('the validator is not a rubber stamp: a broken document fails', async () => {
    const broken = structuredClone(doc) as Record<string, any>
    broken.paths['/auth/me'].get.parameters = [{ name: 'x', in: 'body' }]
    expect((await validateOpenApi(broken)).valid).toBe(false)
    const dangling = structuredClone(doc) as Record<string, any>
    dangling.paths['/auth/me'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Nope' }
    expect((await validateOpenApi(dangling)).valid).toBe(false)
  }, 30_000)

  it('every schema in it is valid JSON Schema 2020-12 (the dialect of OpenAPI 3.1)', () => {
    const { metaErrors } = ajvFor(doc)
    const all = schemasIn(doc)
    expect(all.length).toBeGreaterThan(200)
    const bad = all.map(({ at, schema }) => ({ at, errors: metaErrors(schema) })).filter((x) => x.errors)
    expect(bad).toEqual([])
    // and the check itself catches a bad one
    expect(metaErrors({ type: 'strin' })).not.toBeNull()
  }, 30_000)

  it('is built once and kept', () => {
    expect(openApiDocument()).toBe(openApiDocument())
    expect(JSON.parse(openApiDocument().text)).toEqual(doc)
  })

  it('refuses two registry entries for one operation', () => {
    expect(() => buildOpenApiDocument([OPERATIONS[0], OPERATIONS[0]], [])).toThrow(/two registry entries/)
  })
})

describe('every API route is documented', () => {
  it('finds the API route files (the check below has something to check)', () => {
    expect(apiRouteFiles).toEqual(expect.arrayContaining(['auth.login.ts', 'auth.refresh.ts', 'auth.me.ts', 'auth.sendPasswordResetMail.ts', 'dt.v1.$table.ts', 'dt.v1.$table.$id.ts', 'misc.switchorg.ts', 'files.$org.ts', 'getfiles.$org.$name.ts', 'api.openapi[.]json.ts']))
    expect(apiRouteFiles).not.toContain('api.reference.tsx') // a page, not an API route
    expect(routePath('dt.v1.$table.$id.ts')).toBe('/dt/v1/{table}/{id}')
    expect(routePath('api.openapi[.]json.ts')).toBe('/api/openapi.json')
    expect(routePath('getfiles.$org._index.ts')).toBe('/getfiles/{org}')
  })

  it.each(apiRouteFiles)('%s has a path in the document', (file) => {
    const p = routePath(file)
    expect(Object.keys(doc.paths).filter((x) => x === p || x === `${p}/`), `no path ${p} in app/api/openapi/operations.ts`).toHaveLength(1)
  })

  it('every operation has a summary, a tag of the document, an answer, and a unique operationId', () => {
    const tags = new Set((doc.tags as Array<{ name: string }>).map((t) => t.name))
    const ids = new Set<string>()
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(item)) {
        expect(op.summary, `${m} ${p}`).toBeTruthy()
        expect(tags.has((op.tags as string[])[0]), `${m} ${p}`).toBe(true)
        expect(Object.keys(op.responses as object).some((s) => s.startsWith('2')), `${m} ${p}`).toBe(true)
        expect(ids.has(op.operationId as string), `${op.operationId}`).toBe(false)
        ids.add(op.operationId as string)
      }
    }
  })

  it('every call of SPEC §7 has landed: nothing is marked planned any more', () => {
    expect(OPERATIONS.filter((o) => o.planned).map((o) => `${o.method} ${o.path}`)).toEqual([])
    for (const path of ['/misc/dbops', '/dt/v1/temp_processing', '/dt/v1/temp_manage_intake', '/ota/{name}', '/getfiles/{org}/', '/files/{org}/token']) {
      const ops = Object.values(doc.paths[path] ?? {}) as Array<Record<string, unknown>>
      expect(ops.length, path).toBeGreaterThan(0)
      for (const op of ops) expect(op['x-canopy-planned'], path).toBeUndefined()
    }
  })
})

describe('security and refusals', () => {
  it('the access token is an apiKey header named x-access-token', () => {
    expect((doc.components.securitySchemes as Record<string, unknown>).accessToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-access-token' })
    expect(doc.paths['/dt/v1/{table}'].get.security).toEqual([{ accessToken: [] }])
    // a sensor reading may come from the device itself (POST /dt/v1/{deviceID})
    expect((doc.components.securitySchemes as Record<string, unknown>).deviceBasic).toMatchObject({ type: 'http', scheme: 'basic' })
    expect(doc.paths['/dt/v1/{table}'].post.security).toEqual([{ accessToken: [] }, { deviceBasic: [] }])
    expect(doc.paths['/auth/login'].post.security).toEqual([])
  })

  it('each error code has a refusal with its status and only its code', () => {
    const responses = doc.components.responses as Record<string, any>
    const { check } = ajvFor(doc)
    for (const [code, status] of Object.entries(STATUS_OF)) {
      const r = responses[`Error_${code}`]
      expect(r.description).toMatch(new RegExp(`^${status} ${code}`))
      const schema = r.content['application/json'].schema
      expect(check(schema, { errors: [{ code, message: 'm', field: 'f' }] }).ok).toBe(true)
      expect(check(schema, { errors: [{ code: code === 'CONFLICT' ? 'NOT_FOUND' : 'CONFLICT', message: 'm' }] }).ok).toBe(false)
      expect(check(schema, { error: 'm' }).ok).toBe(false)
    }
    expect(responses.Error_TOO_MANY.headers['Retry-After']).toBeDefined()
  })

  it('operations list the refusals they can answer (400/401/403/404/409/413/429)', () => {
    const statuses = (p: string, m: string) => Object.keys(doc.paths[p][m].responses as object)
    expect(statuses('/dt/v1/{table}', 'post')).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404', '413', '429']))
    expect(statuses('/dt/v1/{table}/{id}', 'put')).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409', '413', '429']))
    expect(statuses('/auth/login', 'post')).toEqual(expect.arrayContaining(['200', '400', '401', '403', '413', '429']))
    expect((doc.paths['/dt/v1/{table}/{id}'].put.responses as Record<string, unknown>)['409']).toEqual({ $ref: '#/components/responses/Error_CONFLICT' })
  })
})

describe('records', () => {
  const tables = shippedTables()

  it('one record schema per shipped table, and the table enum', () => {
    expect(tables.length).toBeGreaterThan(100)
    expect((doc.components.schemas.TableName as { enum: string[] }).enum).toEqual(tables.map((t) => t.key))
    for (const t of tables) expect(doc.components.schemas[`Record_${t.key}`], t.key).toBeDefined()
  })

  it('agrees with the zod schema on which fields a create must send', () => {
    for (const t of tables) {
      const zodMissing = new Set<string>()
      const r = recordSchema(t, { mode: 'create', anyMinute: true })._def.left.safeParse({})
      if (!r.success) for (const i of r.error.issues) zodMissing.add(String(i.path[0]))
      const required = new Set((doc.components.schemas[`Record_${t.key}`].required as string[] | undefined) ?? [])
      expect([...required].sort(), t.key).toEqual([...zodMissing].sort())
    }
  })

  it('a record the zod schema accepts, the JSON Schema accepts; read-only and server keys are marked readOnly', () => {
    const { check } = ajvFor(doc)
    const plants = doc.components.schemas.Record_fac_plants as Record<string, any>
    const good = { tag: 'GL-0001', strain: 's1', room: 'r1', phase: 'Flowering', notes: null, dead_weight: { qty: 2.5, unit: 'g' }, unknown_key: 'ignored' }
    const t = tables.find((x) => x.key === 'fac_plants')!
    expect(recordSchema(t, { mode: 'create', anyMinute: true }).safeParse(good).success).toBe(true)
    expect(check(plants, good)).toMatchObject({ ok: true })
    expect(check(plants, { ...good, phase: 'Exploded' }).ok).toBe(false)
    expect(check(plants, { room: 'r1', strain: 's1' }).ok).toBe(false) // tag is required
    expect(check(plants, { ...good, room: 'x; DROP TABLE' }).ok).toBe(false) // reference ids are plain
    for (const k of ['_id', 'cts', 'ts', 'octs']) expect(plants.properties[k].readOnly, k).toBe(true)
    expect(plants.properties.tag.title).toBe(t.fields.find((f) => f.key === 'tag')!.label)
    const ro = tables.flatMap((x) => x.fields.filter((f) => f.ro).map((f) => [x.key, f.key]))
    expect(ro.length).toBeGreaterThan(0)
    for (const [tk, fk] of ro) expect((doc.components.schemas[`Record_${tk}`] as Record<string, any>).properties[fk].readOnly, `${tk}.${fk}`).toBe(true)
  })
})

describe('the reference page view', () => {
  const view = referenceView(doc)

  it('groups every operation under its tag, in the document order', () => {
    expect(view.groups.map((g) => g.tag)).toEqual(['Auth server', 'Organisation API', 'Files', 'Reference'])
    expect(view.groups.flatMap((g) => g.operations)).toHaveLength(OPERATIONS.length)
    const create = view.groups[1].operations.find((o) => o.id === 'createRecord')!
    expect(create).toMatchObject({ method: 'POST', path: '/dt/v1/{table}', planned: false, security: ['accessToken', 'deviceBasic'] })
    // a table, or a sensor device id (a reading over HTTP)
    expect(create.params[0]).toMatchObject({ name: 'table', in: 'path', required: true, type: expect.stringMatching(/^TableName \| string/) })
    expect(create.body).toMatchObject({ contentType: 'application/json', type: expect.stringMatching(/^Record \| /) })
    expect(create.answers.find((a) => a.status === '413')?.description).toMatch(/^413 TOO_LARGE/)
    expect(view.groups[1].operations.find((o) => o.id === 'pipeline')?.planned).toBe(false)
    expect(view.tables).toContain('fac_plants')
  })

  it('one table as a list of fields; an unknown one is null', () => {
    const t = tableView(doc, 'fac_plants')!
    expect(t.fields.find((f) => f.key === 'tag')).toMatchObject({ required: true, readOnly: false, type: 'string (at most 500 characters)' })
    expect(t.fields.find((f) => f.key === '_id')).toMatchObject({ readOnly: true })
    expect(tableView(doc, 'nope')).toBeNull()
  })

  it('describes schemas in words', () => {
    expect(describeSchema({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] })).toBe('one of a, b or null')
    expect(describeSchema({ type: 'integer', minimum: 0, maximum: 1000 })).toBe('integer (≥ 0, ≤ 1000)')
    expect(describeSchema({ type: 'array', items: { $ref: '#/components/schemas/Record' } })).toBe('array of Record')
    expect(describeSchema({})).toBe('any')
  })
})
