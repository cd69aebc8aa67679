#!/usr/bin/env node
/**
 * Writes app/metrc/reference/generated.ts from METRC's own published API as kept in
 * tests/fixtures/metrc-real/ (copied from shared/reference/metrc-real; see its README):
 *   - which endpoints exist in which state (om-v2-summary.md, 24 columns)
 *   - the query parameters of every v2 GET (metrc-postman-ca-endpoints.txt): does it take lastModified?
 *   - the example body row of every v2 write of the families Canopy writes to (metrc-postman-ca-flat.json)
 * `node scripts/metrc-reference.mjs` regenerates it; tests/unit/metrc-reference.test.ts checks
 * the committed file is what this script makes, so it cannot drift from the reference.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ref = path.join(root, 'tests/fixtures/metrc-real')

/** om-v2-summary.md → { 'GET /plants/v2/waste/methods/all': ['CA', …] } */
export function stateEndpoints(text) {
  const out = {}
  let states = []
  for (const line of text.split(/\r?\n/)) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim())
    if (cells.length < 2) continue
    if (/^\*\*/.test(cells[0])) {
      states = cells.slice(1).map((c) => c.replace(/\*/g, ''))
      continue
    }
    const m = /^(get|post|put|delete)_(.+)$/.exec(cells[0])
    if (!m) continue
    const segs = m[2].split('_').map((s) => (s === 'id' || /^[a-z]+[A-Z]/.test(s) ? `{${s}}` : s))
    const key = `${m[1].toUpperCase()} /${segs.join('/')}`
    out[key] = cells.slice(1).flatMap((c, i) => (c === 'x' ? [states[i]] : []))
  }
  return out
}

/** the v2 GETs of the Postman collection → { '/plants/v2/vegetative': ['licenseNumber', 'lastModifiedStart', …] } */
export function getParams(text) {
  const out = {}
  for (const line of text.split(/\r?\n/)) {
    const m = /^GET (\/[a-z-]+\/v2\/[^?\s]*)(?:\?(\S*))?/.exec(line)
    if (!m) continue
    const p = m[1].replace(/\/+$/, '').replace(/\{\{(\w+)\}\}/g, '{$1}')
    out[p] = m[2] ? m[2].split('&') : []
  }
  return out
}

const BODY_FAMILIES = /^\/(plants|plantbatches|packages|harvests|items|strains|locations|patients|transfers|sales)\/v2\//

/** each v2 write body's example rows merged into one → { 'POST /plants/v2/waste': {…} } */
export function writeBodies(list) {
  const out = {}
  for (const r of list) {
    if (r.method === 'GET' || !BODY_FAMILIES.test(r.path) || !r.body) continue
    const key = `${r.method} ${r.path.replace(/\/+$/, '').replace(/\{\{(\w+)\}\}/g, '{$1}')}`
    if (key in out) continue
    let body
    try {
      body = JSON.parse(r.body)
    } catch {
      continue
    }
    // one row with every field, each with the first non-null value METRC's example rows give it
    // (the first row may leave a number or a unit null that a later row shows)
    const rows = (Array.isArray(body) ? body : [body]).filter((x) => x && typeof x === 'object')
    if (!rows.length) continue
    const row = {}
    for (const r of rows) for (const [k, v] of Object.entries(r)) if (!(k in row) || (row[k] === null && v !== null)) row[k] = v
    out[key] = row
  }
  return out
}

/** METRC's documentation of single endpoints (*.bru): method, path, permissions, example answer (first row of a list). */
export function bruExamples(dir) {
  const out = {}
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.bru')).sort()) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8')
    const verb = /^(get|post|put|delete) \{\s*url: \{\{baseUrl\}\}(\S+)/m.exec(text)
    if (!verb) continue
    const key = `${verb[1].toUpperCase()} ${verb[2].replace(/\/+$/, '')}`
    const perms = /Permissions Required:\n((?:\s+- .+\n)+)/.exec(text)
    const permissions = perms ? perms[1].split('\n').map((l) => l.replace(/^\s*- /, '').trim()).filter(Boolean) : []
    const ex = /Example Response:\n([\s\S]*)\n\}\s*$/.exec(text)
    const raw = ex ? ex[1].trim() : ''
    let answer = 'none'
    let row = null
    if (raw && raw !== 'No response') {
      const json = JSON.parse(raw)
      if (Array.isArray(json)) [answer, row] = ['bare', json[0] ?? null]
      else if (json && Array.isArray(json.Data)) [answer, row] = ['paged', json.Data[0] ?? null]
      else [answer, row] = ['object', json]
    }
    out[key] = { file: name, permissions, answer, row }
  }
  return out
}

export function generate() {
  const states = stateEndpoints(fs.readFileSync(path.join(ref, 'om-v2-summary.md'), 'utf8').replace(/^\uFEFF/, ''))
  const params = getParams(fs.readFileSync(path.join(ref, 'metrc-postman-ca-endpoints.txt'), 'utf8'))
  const bodies = writeBodies(JSON.parse(fs.readFileSync(path.join(ref, 'metrc-postman-ca-flat.json'), 'utf8')))
  const stateLines = Object.entries(states).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v.join(' '))},`)
  const paramLines = Object.entries(params).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v.join('&'))},`)
  const examples = bruExamples(ref)
  const exampleLines = Object.entries(examples).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`)
  const bodyLines = Object.entries(bodies).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`)
  return `// Generated by scripts/metrc-reference.mjs from tests/fixtures/metrc-real (METRC's published API). Do not edit.

/** Endpoint → the METRC states it exists in, space-separated (om-v2-summary.md). */
export const STATE_ENDPOINTS: Record<string, string> = {
${stateLines.join('\n')}
}

/** v2 GET path → its query parameters, &-separated (METRC's Postman collection, California). */
export const GET_PARAMS: Record<string, string> = {
${paramLines.join('\n')}
}

/** METRC's documented example answers (*.bru): the permissions, the answer's form, its first row. */
export const EXAMPLES: Record<string, { file: string; permissions: string[]; answer: 'paged' | 'bare' | 'object' | 'none'; row: Record<string, unknown> | null }> = {
${exampleLines.join('\n')}
}

/** v2 write → METRC's example body rows merged: every field, with the first non-null value given (METRC's Postman collection, California). */
export const WRITE_BODIES: Record<string, Record<string, unknown>> = {
${bodyLines.join('\n')}
}
`
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.join(root, 'app/metrc/reference/generated.ts')
  fs.mkdirSync(path.dirname(out), { recursive: true })
  fs.writeFileSync(out, generate())
  console.log(`wrote ${path.relative(root, out)}`)
}
