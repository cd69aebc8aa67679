/** Tag generator (SPEC §9: numbers padded to 4 digits by default): formatting, the next tag, and refused input. */
import { TAG_WIDTH, formatTag, nextTag } from '#app/forms/tag-generator'

describe('formatTag', () => {
  it('pads the number to 4 digits by default', () => {
    expect(TAG_WIDTH).toBe(4)
    expect(formatTag('DOC-', 7)).toBe('DOC-0007')
    expect(formatTag('DOC-', 0)).toBe('DOC-0000')
    expect(formatTag('DOC-', 9999)).toBe('DOC-9999')
    expect(formatTag('', 42)).toBe('0042')
  })
  it('pads to another width when asked', () => {
    expect(formatTag('PB-', 5, 6)).toBe('PB-000005')
    expect(formatTag('T', 5, 1)).toBe('T5')
  })
  it('refuses a negative, fractional or too long number, and a bad width, with a clear message', () => {
    expect(() => formatTag('DOC-', -1)).toThrow('A tag number can not be negative (-1)')
    expect(() => formatTag('DOC-', 1.5)).toThrow('A tag number must be a whole number, not 1.5')
    expect(() => formatTag('DOC-', Number.NaN)).toThrow('A tag number must be a whole number, not NaN')
    expect(() => formatTag('DOC-', 10_000)).toThrow('Tag number 10000 does not fit in 4 digits (DOC-9999 is the last tag)')
    expect(() => formatTag('DOC-', 100, 2)).toThrow('Tag number 100 does not fit in 2 digits')
    expect(() => formatTag('DOC-', 1, 0)).toThrow('Tag width must be a whole number from 1 to 15, not 0')
    expect(() => formatTag('DOC-', 1, 2.5)).toThrow('Tag width must be a whole number from 1 to 15, not 2.5')
    expect(() => formatTag('DOC-', 1, 16)).toThrow('Tag width must be a whole number from 1 to 15, not 16')
  })
})

describe('nextTag', () => {
  it('is the one after the highest tag with the prefix, gaps not refilled', () => {
    expect(nextTag('DOC-', ['DOC-0101', 'DOC-0103', 'DOC-0102'])).toBe('DOC-0104')
    expect(nextTag('DOC-', ['DOC-0001', 'DOC-0009'])).toBe('DOC-0010')
  })
  it('starts at 1 when no tag has the prefix', () => {
    expect(nextTag('DOC-', [])).toBe('DOC-0001')
    expect(nextTag('DOC-', ['INV-0500'])).toBe('DOC-0001')
  })
  it('ignores tags whose rest is not digits and tags of a longer prefix', () => {
    expect(nextTag('DOC-', ['DOC-0005', 'DOC-12a', 'DOC-', 'DOC-X-9000', 'doc-0900'])).toBe('DOC-0006')
  })
  it('reads unpadded and wider-padded numbers by their value', () => {
    expect(nextTag('T', ['T7', 'T00012'])).toBe('T0013')
  })
  it('refuses to go past the width instead of making a longer tag', () => {
    expect(() => nextTag('DOC-', ['DOC-9999'])).toThrow('Tag number 10000 does not fit in 4 digits')
    expect(nextTag('DOC-', ['DOC-9999'], 5)).toBe('DOC-10000')
  })
})
