/**
 * SPEC §3 phrase map: every text the UI passes through t('…') has a Spanish entry in the demo
 * phrase map, so choosing Spanish never leaves a stray English label in the shell.
 */
import fs from 'node:fs'
import path from 'node:path'
import { HELP_UI } from '#app/components/help-view'
import { ES } from '#app/seed/records/platform-3'

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [path.join(dir, d.name)] : []))
}

describe('phrase map', () => {
  it("has a Spanish text for every literal key the UI translates", () => {
    const keys = new Set<string>()
    for (const f of files('app')) for (const m of fs.readFileSync(f, 'utf8').matchAll(/\bt\('((?:[^'\\]|\\.)+)'\)/g)) keys.add(m[1].replace(/\\'/g, "'"))
    expect(keys.size).toBeGreaterThan(15)
    expect([...keys].filter((k) => !ES[k])).toEqual([])
  })

  it('has a Spanish text for every label of the help pages', () => {
    const labels = Object.values(HELP_UI).flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v)))
    expect(labels.length).toBeGreaterThan(10)
    expect(labels.filter((k) => !ES[k])).toEqual([])
  })

  it('has no empty or untranslated-looking entries', () => {
    for (const [k, v] of Object.entries(ES)) {
      expect(v.trim(), k).not.toBe('')
      expect(v.includes('TODO'), k).toBe(false)
    }
  })
})
