/**
 * The files an operator and CI run agree (issue 28): one Node.js line in the image, .nvmrc, package.json's
 * engines and .ci/run; the lockfile installed exactly (npm ci, no fallback that would hide drift); no
 * source maps or build metafiles in the image.
 */
import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8')

describe('operations files', () => {
  const nvmrc = read('.nvmrc').trim()
  it('one Node.js LTS line everywhere', () => {
    expect(nvmrc).toMatch(/^\d+$/)
    expect(Number(nvmrc) % 2).toBe(0) // LTS lines are the even ones
    expect(Number(nvmrc)).toBeGreaterThanOrEqual(24) // Node 20 reached end of life in April 2026
    const froms = [...read('Dockerfile').matchAll(/^FROM node:(\d+)-/gm)].map((m) => m[1])
    expect(froms.length).toBeGreaterThanOrEqual(3)
    expect(new Set(froms)).toEqual(new Set([nvmrc]))
    expect(JSON.parse(read('package.json')).engines.node).toBe(`>=${nvmrc}`)
  })
  it('installs the lockfile exactly, in the image and in CI', () => {
    for (const f of ['Dockerfile', '.ci/run']) {
      expect(read(f)).toMatch(/npm ci/)
      expect(read(f)).not.toMatch(/\|\|\s*npm install/)
    }
  })
  it('keeps source maps and build metafiles out of the image unless asked', () => {
    const d = read('Dockerfile')
    expect(d).toMatch(/ARG SOURCEMAP=0/)
    expect(d).toMatch(/rm -f build\/metafile\.\*\.json public\/build\/metafile\.\*\.json/)
  })
})
