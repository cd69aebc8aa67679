/**
 * METRC's published API as Canopy keeps it (issue 21): app/metrc/reference/generated.ts is exactly
 * what scripts/metrc-reference.mjs makes of tests/fixtures/metrc-real (so it cannot drift from
 * the reference); what it answers about states, lastModified, permissions and bodies; the client's
 * host table covers every METRC state; a date-only METRC value is the facility's calendar day.
 */
import fs from 'node:fs'
import path from 'node:path'
import { METRC_STATES, metrcBaseUrl } from '#app/metrc/client/states'
import { bodyOf, existsIn, METRC_HOST_STATES, missingPermissions, permissionText, takesLastModified, templateOf, writeAnswers } from '#app/metrc/reference'
import { documentOf, SYNC_TABLES } from '#app/metrc/sync/tables'
import { generate } from '../../scripts/metrc-reference.mjs'

describe("METRC's reference in the repository", () => {
  it('generated.ts is what the generator makes of the reference files', () => {
    expect(fs.readFileSync(path.join(__dirname, '../../app/metrc/reference/generated.ts'), 'utf8')).toBe(generate())
  })

  it('knows which state has which endpoint', () => {
    expect(existsIn('CA', 'GET', '/patients/v2/active')).toBe(false)
    expect(existsIn('CO', 'GET', '/patients/v2/active')).toBe(true)
    expect(existsIn('CA', 'GET', '/employees/v2')).toBe(true)
    expect(existsIn('MN', 'GET', '/employees/v2')).toBe(false)
    expect(existsIn('NJ', 'GET', '/wastemethods/v2')).toBe(true)
    expect(existsIn('CA', 'GET', '/wastemethods/v2')).toBe(false)
    // newer than the coverage table: taken to exist everywhere
    expect(existsIn('CA', 'GET', '/plants/v2/mother')).toBe(true)
    // Alaska has no column entries at all (OpenMetrc dropped it): not known to lack anything
    expect(existsIn('AK', 'GET', '/plants/v2/vegetative')).toBe(true)
    expect(templateOf('GET', '/plants/v2/1A4000000000000000000001')).toBe('GET /plants/v2/label')
    expect(templateOf('GET', '/packages/v2/1234')).toBe('GET /packages/v2/{id}')
  })

  it('reads lastModified only where METRC takes it, and knows permissions, answers and bodies', () => {
    expect(takesLastModified('/plants/v2/vegetative')).toBe(true)
    expect(takesLastModified('/plants/v2/waste')).toBe(false)
    expect(takesLastModified('/patients/v2/active')).toBe(false)
    expect(missingPermissions('GET /employees/v2', ['View Employees'])).toEqual([])
    expect(missingPermissions('GET /employees/v2', ['View Packages'])).toEqual(['Manage Employees', 'View Employees'])
    expect(missingPermissions('PUT /plants/v2/growthphase', ['View Veg/Flower Plants'])).toEqual(['Manage Veg/Flower Plants Inventory'])
    expect(permissionText('GET /employees/v2')).toBe('Manage Employees or View Employees')
    expect(writeAnswers('PUT')).toBe('none')
    expect(writeAnswers('POST')).toBe('ids')
    expect(Object.keys(bodyOf('DELETE /plants/v2')!)).toContain('WasteMaterialMixed')
    expect(Object.keys(bodyOf('POST /plants/v2/waste')!)).toContain('LocationName')
    expect(bodyOf('POST /items/v2')!.UnitWeight).toBe(150) // a later example row's value: a number
  })

  it("the client's host table has every METRC state, each on METRC's host", () => {
    for (const st of [...METRC_HOST_STATES, 'AK']) expect(METRC_STATES).toContain(st)
    expect(METRC_STATES).toHaveLength(24)
    expect(metrcBaseUrl('NJ')).toBe('https://api-nj.metrc.com')
    expect(metrcBaseUrl('gu', { sandbox: true })).toBe('https://sandbox-api-gu.metrc.com')
  })

  it("a date-only METRC value is the facility's calendar day, not midnight UTC", () => {
    const doc = documentOf(SYNC_TABLES.get('metrc_packages')!, { Id: 1, Label: 'X', PackagedDate: '2026-11-13', LastModified: '2026-11-13T10:00:00+00:00', Item: { Name: 'Buds', ProductCategoryName: 'Buds', StrainName: 'OG' } }, { license: 'L', state: 'CA', timeZone: 'America/Los_Angeles' }, new Map([['PackagedDate', 'date'], ['LastModified', 'date']]))
    expect(doc).toMatchObject({ PackagedDate: '2026-11-13T08:00:00.000Z', LastModified: '2026-11-13T10:00:00+00:00', ItemName: 'Buds', ItemCategoryName: 'Buds', ItemStrainName: 'OG' })
    expect(doc).not.toHaveProperty('Item')
  })
})
