/**
 * A record's label on the real database (app/labels/record-label.server.ts): the table rights of
 * the screens, another organisation's record not found, referenced labels and dates formatted as
 * the table shows them, the printer's size and format, a device caller (user null) held to its
 * organisation's facility tables, and the edit form's label links.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { findUser } from '#app/auth/accounts.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { labelLinks } from '#app/labels/links.server'
import { renderRecordLabel, type LabelCaller } from '#app/labels/record-label.server'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import type { AppError } from '#app/utils/errors'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'labels-test' }
const TAG = '1A4FF0300000000000004321'
let t: TestDatabase
let env: Env
const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: 'test', clientIp: '127.0.0.1' }) as unknown as AppLoadContext

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env)
  await t.schemas.put(actor, { key: 'set_rooms', label: 'Rooms', items: [{ key: 'name', label: 'Room', filter: true }] })
  await t.schemas.put(actor, {
    key: 'fac_plants',
    label: 'Plants',
    items: [
      { key: 'tag', label: 'Plant Tag', filter: true },
      { key: 'strain', label: 'Strain' },
      { key: 'room', label: 'Room', type: 'list', format: 'id:set_rooms:name' },
      { key: 'phase', label: 'Growth Phase' },
      { key: 'planted', label: 'Planted', type: 'date' },
    ],
  })
  await t.schemas.put(actor, {
    key: 'set_printers',
    label: 'Printers',
    items: ['name', 'deviceid', 'field', 'template', 'zpl', 'label_size', 'dpi'].map((key) => ({ key, label: key })),
  })
  await t.store.insert(actor, 'auth', 'org', { _id: 'greenleaf', fullName: 'Greenleaf', timezone: 'America/Los_Angeles' })
  await t.store.insert(actor, 'greenleaf', 'set_rooms', { _id: 'r-2', name: 'Flower (Room) 2' })
  await t.store.insert(actor, 'greenleaf', 'fac_plants', { _id: 'p-1', tag: TAG, strain: 'Blue Dream', room: 'r-2', phase: 'Flowering', planted: '2026-03-07T22:05:00Z' })
  await t.store.insert(actor, 'harbor', 'fac_plants', { _id: 'p-h', tag: 'HARBOR-ONLY', strain: 'Secret' })
  await t.store.insert(actor, 'greenleaf', 'set_printers', { _id: 'pr-1', name: 'Flower Room Tag Printer', deviceid: 'prt-gre-02', field: 'tag', template: 'plant_tag_rfid', zpl: 'yes', label_size: '1" x 3"', dpi: 300 })
  await t.store.insert(actor, 'greenleaf', 'set_printers', { _id: 'pr-2', name: 'Office', deviceid: 'prt-gre-09', field: 'label', template: 'package_label_4x2', zpl: 'no', label_size: '4" x 2"', dpi: 203 })
  for (const [uid, modules] of [['u-cul', ['cul']], ['u-help', ['help']]] as const)
    await t.store.insert(actor, 'auth', 'users', { _id: uid, uid, email: `${uid}@x.test`, role: 'user', org: 'greenleaf', web: 'yes', props: { facilities: ['greenleaf'], modules: { greenleaf: modules } } })
})
afterAll(() => t?.cleanup())

const person = async (uid: string): Promise<LabelCaller> => ({ org: 'greenleaf', user: (await findUser(t, uid))! })
const text = (b: string | Uint8Array) => (typeof b === 'string' ? b : Buffer.from(b).toString('latin1'))
const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: AppError) => e.code)

describe('renderRecordLabel', () => {
  it('prints the record as the table shows it, at the printer’s size, in its format', async () => {
    const caller = await person('u-cul')
    const pdf = await renderRecordLabel(ctx(), caller, { table: 'fac_plants', id: 'p-1', baseUrl: 'http://canopy.test' }, 'pdf')
    expect(pdf.contentType).toBe('application/pdf')
    expect(pdf.template).toBe('plant_tag_rfid')
    expect(pdf.printer?.deviceid).toBe('prt-gre-02')
    const body = text(pdf.body)
    expect(body).toContain('/MediaBox [0 0 216 72]') // 1" x 3", landscape
    expect(body).toContain('(Blue Dream) Tj') // the template's title field
    expect(body).toContain(`(${TAG}) Tj`)
    expect(body).toContain('(Room: Flower \\(Room\\) 2) Tj') // the referenced room's name, escaped
    // the default template has room for the date: Los Angeles wall time, as the table shows it
    const all = text((await renderRecordLabel(ctx(), caller, { table: 'fac_plants', id: 'p-1', template: 'default' }, 'svg')).body)
    expect(all).toContain('Planted: 03/07/2026 02:05 PM')
    expect(all).toMatch(/width="4in" height="2in"/) // default's own size: no printer serves it with that template
    // no format asked: the printer's own (a ZPL printer)
    const z = await renderRecordLabel(ctx(), caller, { table: 'fac_plants', id: 'p-1' }, null)
    expect(z.format).toBe('zpl')
    expect(text(z.body)).toContain(`^FH^FD${TAG}^FS`)
    expect(text(z.body)).toContain('^PW900') // 3" at 300 dpi
  })

  it('does not find another organisation’s record; refuses tables the user’s screens do not show and unknown templates', async () => {
    expect(await codeOf(renderRecordLabel(ctx(), await person('u-cul'), { table: 'fac_plants', id: 'p-h' }, 'svg'))).toBe('NOT_FOUND')
    expect(await codeOf(renderRecordLabel(ctx(), await person('u-cul'), { table: 'fac_plants', id: 'bad id!' }, 'svg'))).toBe('NOT_FOUND')
    expect(await codeOf(renderRecordLabel(ctx(), await person('u-help'), { table: 'fac_plants', id: 'p-1' }, 'svg'))).toBe('FORBIDDEN')
    expect(await codeOf(renderRecordLabel(ctx(), await person('u-cul'), { table: 'fac_plants', id: 'p-1', template: 'nope' }, 'svg'))).toBe('BAD_INPUT')
    expect(await codeOf(renderRecordLabel(ctx(), await person('u-cul'), { table: 'no_table', id: 'p-1' }, 'svg'))).toBe('NOT_FOUND')
  })

  it('serves a device of the organisation (user null): its own printer’s size, never the platform’s tables or another organisation', async () => {
    const device: LabelCaller = { org: 'greenleaf', user: null }
    const out = await renderRecordLabel(ctx(), device, { table: 'fac_plants', id: 'p-1', template: 'package_label_4x2', device: 'prt-gre-09' }, 'pdf')
    expect(text(out.body)).toContain('/MediaBox [0 0 288 144]')
    expect(await codeOf(renderRecordLabel(ctx(), device, { table: 'users', id: 'u-cul' }, 'svg'))).toBe('NOT_FOUND')
    expect(await codeOf(renderRecordLabel(ctx(), { org: 'harbor', user: null }, { table: 'fac_plants', id: 'p-1' }, 'svg'))).toBe('NOT_FOUND')
    expect(await codeOf(renderRecordLabel(ctx(), device, { table: 'fac_plants', id: 'p-1', device: 'prt-none' }, 'svg'))).toBe('NOT_FOUND')
  })

  it('gives the edit form the links of the printer serving the table', async () => {
    const plants = (await t.schemas.get('fac_plants'))!
    expect(await labelLinks(ctx(), 'greenleaf', plants, 'p-1')).toEqual({
      template: 'plant_tag_rfid',
      printer: 'Flower Room Tag Printer',
      svg: '/labels/fac_plants/p-1?template=plant_tag_rfid&format=svg',
      pdf: '/labels/fac_plants/p-1?template=plant_tag_rfid&format=pdf',
      zpl: '/labels/fac_plants/p-1?template=plant_tag_rfid&format=zpl',
    })
    // rooms: no printer names a field of theirs and they have no code field
    expect(await labelLinks(ctx(), 'greenleaf', (await t.schemas.get('set_rooms'))!, 'r-2')).toBeNull()
    // an organisation without printers offers none
    expect(await labelLinks(ctx(), 'harbor', plants, 'p-h')).toBeNull()
  })
})
