/**
 * The layer order of docs/architecture.md ("Layers"), held against the code: every import of an
 * app module (type-only imports included: they are design dependencies too) goes to its own layer
 * or a lower one; rooms of one layer import each other without a loop; every app file belongs to a
 * layer; server.ts imports no app module at run time (the app is loaded once, from the Remix build).
 */
import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')
const MAP = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8')

/** `| 3 | name | \`a/\` \`b.ts\` |` rows of the table under "## Layers" → room → layer */
function readLayers(): Map<string, number> {
  const section = MAP.split(/^## Layers\s*$/m)[1]?.split(/^## /m)[0]
  if (!section) throw new Error('docs/architecture.md has no "## Layers" section')
  const rooms = new Map<string, number>()
  for (const line of section.split('\n')) {
    const m = /^\|\s*(\d+)\s*\|[^|]*\|([^|]*)\|/.exec(line)
    if (!m) continue
    for (const p of m[2].matchAll(/`([^`]+)`/g)) rooms.set(p[1].replace(/\/$/, ''), Number(m[1]))
  }
  return rooms
}

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name)
    if (e.isDirectory()) out.push(...sourceFiles(rel))
    else if (/\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(rel)
  }
  return out
}

/** The modules a file imports (relative, `#app/` and `~/` specifiers), as paths under app/ without extension. */
function importsOf(file: string): Array<{ spec: string; target: string; typeOnly: boolean }> {
  const src = fs.readFileSync(path.join(ROOT, file), 'utf8')
  const out: Array<{ spec: string; target: string; typeOnly: boolean }> = []
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g
  for (const m of src.matchAll(re)) {
    const spec = m[3] ?? m[4]
    let target: string | null = null
    if (spec.startsWith('.')) target = path.normalize(path.join(path.dirname(file), spec))
    else if (spec.startsWith('#app/')) target = path.join('app', spec.slice(5))
    else if (spec.startsWith('~/')) target = path.join('app', spec.slice(2))
    if (target) out.push({ spec, target: target.replace(/\.(tsx?|jsx?)$/, ''), typeOnly: Boolean(m[2]) })
  }
  return out
}

const layers = readLayers()

/** The room (layer table entry) a path under app/ falls in: the longest entry that contains it. */
function roomOf(p: string): string | null {
  const rel = p.replace(/^app\//, '')
  let best: string | null = null
  for (const room of layers.keys()) {
    const bare = room.replace(/\.(tsx?|css)$/, '')
    const hit = rel === bare || rel === room || rel.startsWith(`${room}/`) || (room.endsWith('*') && rel.startsWith(room.slice(0, -1)))
    if (hit && (!best || room.length > best.length)) best = room
  }
  // each business area (areas/<name>/) is a room of its own in the areas layer
  if (best === 'areas') return `areas/${rel.split('/')[1]}`
  return best
}
const layerOf = (room: string) => layers.get(room.startsWith('areas/') ? 'areas' : room)!

describe('the layer order of docs/architecture.md', () => {
  const files = sourceFiles('app')

  it('names the layers', () => {
    expect(layers.size).toBeGreaterThan(10)
  })

  it('places every app file in a layer', () => {
    expect(files.filter((f) => !roomOf(f))).toEqual([])
  })

  it('has no import that climbs to a higher layer', () => {
    const climbs: string[] = []
    for (const f of files) {
      const from = roomOf(f)!
      for (const i of importsOf(f)) {
        const to = roomOf(i.target)
        if (!to || to === from) continue
        if (layerOf(to) > layerOf(from)) climbs.push(`${f} (layer ${layerOf(from)}) imports ${i.spec} (${to}, layer ${layerOf(to)})`)
      }
    }
    expect(climbs).toEqual([])
  })

  it('has no loop between the rooms of one layer', () => {
    const edges = new Map<string, Set<string>>()
    for (const f of files) {
      const from = roomOf(f)!
      for (const i of importsOf(f)) {
        const to = roomOf(i.target)
        if (!to || to === from || layerOf(to) !== layerOf(from)) continue
        edges.set(from, (edges.get(from) ?? new Set()).add(to))
      }
    }
    const loops: string[] = []
    const visit = (room: string, trail: string[]) => {
      for (const next of edges.get(room) ?? []) {
        if (next === trail[0]) loops.push([...trail, next].join(' → '))
        else if (!trail.includes(next) && next > trail[0]) visit(next, [...trail, next])
      }
    }
    for (const room of edges.keys()) visit(room, [room])
    expect(loops).toEqual([])
  })

  it('keeps server.ts free of app modules at run time (the app is loaded once, from the Remix build)', () => {
    const runtime = importsOf('server.ts').filter((i) => !i.typeOnly && i.target.startsWith('app'))
    expect(runtime).toEqual([])
  })

  it('sees a climbing import when there is one (the checker itself)', () => {
    expect(layerOf(roomOf('app/db/store.server.ts')!)).toBeLessThan(layerOf(roomOf('app/screens/table-page.server.ts')!))
    expect(roomOf('app/areas/cultivation/move.server.ts')).toBe('areas/cultivation')
    expect(importsOf('app/screens/table-page.server.ts').some((i) => i.target === 'app/db/read-cache.server' || i.target.startsWith('app/db'))).toBe(true)
  })
})
