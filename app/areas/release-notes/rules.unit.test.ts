import { describe, expect, it } from 'vitest'
import { compareVersions, newestVersion } from './rules'

describe('release-note versions', () => {
  it('orders dotted numbers as numbers, not as text', () => {
    expect(compareVersions('4.10.0', '4.9.3')).toBeGreaterThan(0)
    expect(compareVersions('4.1', '4.1.0')).toBe(0)
    expect(compareVersions('3.9.3', '4.0.0')).toBeLessThan(0)
    expect(newestVersion(['4.0.3', '4.10.0', '4.9.9'])).toBe('4.10.0')
    expect(newestVersion([])).toBe('')
  })
})
