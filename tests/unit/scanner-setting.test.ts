/** A scanner setting's field (SPEC §3: a field name, `id:prt` or `id:more`; decision 060). */
import { parseScannerField, tableScan } from '../../app/forms/scanner-setting'

describe('parseScannerField', () => {
  it.each([
    ['tag', { field: 'tag', then: 'fill' }],
    ['id:prt', { field: 'id', then: 'prt' }],
    ['id:more', { field: 'id', then: 'more' }],
    ['mtag:more', { field: 'mtag', then: 'more' }],
    [' id:prt ', { field: 'id', then: 'prt' }],
  ])('%j → %j', (value, want) => expect(parseScannerField(value)).toEqual(want))

  it.each(['', 'id:', ':prt', 'id:print', 'id:prt:more', 'a b', 'fac.tag', '1tag', 'x'.repeat(65), null, 42])('%j is not a setting', (value) =>
    expect(parseScannerField(value)).toBeNull(),
  )
})

describe('tableScan', () => {
  it("is the table's first RFID setting that prints or opens; fill-only and scale settings do not count", () => {
    expect(tableScan([{ field: 'tag', type: 'rfid' }, { field: 'wet:more', type: 'scale' }])).toBeNull()
    expect(tableScan([{ field: 'tag', type: 'rfid' }, { field: 'tag:more', type: 'rfid' }, { field: 'id:prt', type: 'rfid' }])).toEqual({ field: 'tag', then: 'more' })
    expect(tableScan([{ field: 'bad:thing', type: 'rfid' }, { field: 'id:prt', type: 'rfid' }])).toEqual({ field: 'id', then: 'prt' })
  })
})

describe('the Scanner Settings save check', () => {
  it('refuses a field that is none of the three shapes, with the message beside the field', async () => {
    const { checkSaveRules } = await import('../../app/forms/save-rules')
    const ctx = { mode: 'create' as const }
    expect(checkSaveRules('sen_scanner_settings', { table: 'fac_plants', field: 'id:prt', type: 'rfid' }, ctx).errors).toEqual([])
    expect(checkSaveRules('sen_scanner_settings', { table: 'fac_plants', field: 'tag', type: 'rfid' }, ctx).errors).toEqual([])
    const { errors } = checkSaveRules('sen_scanner_settings', { table: 'fac_plants', field: 'id:print', type: 'rfid' }, ctx)
    expect(errors).toEqual([{ kind: 'error', message: expect.stringContaining("':prt'"), fields: ['field'] }])
  })
})
