/**
 * What the reference page (/api/reference) shows, read from the OpenAPI document: operations grouped
 * by tag with their parameters, bodies and answers, and one table's record fields at a time. Plain
 * data (small enough to send to the browser); schemas are summarised in words ("string, at most 500
 * characters") and, for bodies and answers, also given as JSON Schema text.
 */
import type { JsonSchema } from './json-schema'

export interface ParamView { name: string; in: string; required: boolean; type: string; description?: string }
export interface BodyView { contentType: string; type: string; schema: string; required: boolean; description?: string }
export interface AnswerView { status: string; description: string; contentType?: string; type?: string; schema?: string }
export interface OperationView {
  id: string
  method: string
  path: string
  summary: string
  description?: string
  planned: boolean
  security: string[]
  params: ParamView[]
  body?: BodyView
  answers: AnswerView[]
}
export interface ReferenceView {
  title: string
  version: string
  description: string
  groups: Array<{ tag: string; description: string; operations: OperationView[] }>
  tables: string[]
}
export interface FieldView { key: string; title: string; type: string; required: boolean; readOnly: boolean; description?: string }
export interface TableView { key: string; title: string; description: string; fields: FieldView[] }

type Doc = JsonSchema & { paths: Record<string, Record<string, JsonSchema>>; components: JsonSchema }

const refName = (ref: string) => ref.split('/').pop() ?? ref
const list = (xs: unknown[], max = 8) => (xs.length > max ? `${xs.slice(0, max).map(String).join(', ')}, … (${xs.length} in all)` : xs.map(String).join(', '))

/** A JSON Schema in a few words. */
export function describeSchema(s: JsonSchema | undefined): string {
  if (!s || Object.keys(s).length === 0) return 'any'
  if (typeof s.$ref === 'string') return refName(s.$ref)
  if ('const' in s) return JSON.stringify(s.const)
  for (const k of ['anyOf', 'oneOf'] as const) {
    const xs = s[k] as JsonSchema[] | undefined
    if (Array.isArray(xs)) {
      const parts = xs.filter((x) => x.type !== 'null').map(describeSchema)
      const nul = xs.some((x) => x.type === 'null')
      return parts.join(' | ') + (nul ? ' or null' : '')
    }
  }
  if (Array.isArray(s.allOf)) return (s.allOf as JsonSchema[]).map(describeSchema).join(' & ')
  if (Array.isArray(s.enum)) return `one of ${list(s.enum)}`
  const type = Array.isArray(s.type) ? (s.type as string[]).join(' or ') : String(s.type ?? 'any')
  const notes: string[] = []
  if (s.type === 'array') return `array of ${describeSchema(s.items as JsonSchema)}${typeof s.maxItems === 'number' ? `, at most ${s.maxItems}` : ''}`
  if (typeof s.minLength === 'number' && s.minLength > 0) notes.push(`at least ${s.minLength} characters`)
  if (typeof s.maxLength === 'number') notes.push(`at most ${s.maxLength} characters`)
  if (typeof s.pattern === 'string') notes.push(`matching ${s.pattern}`)
  if (typeof s.format === 'string') notes.push(s.format)
  if (typeof s.minimum === 'number') notes.push(`≥ ${s.minimum}`)
  if (typeof s.maximum === 'number') notes.push(`≤ ${s.maximum}`)
  if (s.type === 'object' && s.properties) notes.push(`keys ${list(Object.keys(s.properties as object), 10)}`)
  return notes.length ? `${type} (${notes.join(', ')})` : type
}

const pretty = (s: unknown) => JSON.stringify(s, null, 2)

function firstContent(c: unknown): { contentType: string; schema?: JsonSchema } | undefined {
  const entries = Object.entries((c ?? {}) as Record<string, { schema?: JsonSchema }>)
  if (!entries.length) return undefined
  return { contentType: entries.map(([t]) => t).join(', '), schema: entries[0][1].schema }
}

function answerView(doc: Doc, status: string, r: JsonSchema): AnswerView {
  const resolved = typeof r.$ref === 'string' ? ((doc.components.responses as Record<string, JsonSchema>)[refName(r.$ref)] ?? {}) : r
  const c = firstContent(resolved.content)
  return { status, description: String(resolved.description ?? ''), ...(c ? { contentType: c.contentType, type: describeSchema(c.schema), schema: pretty(c.schema) } : {}) }
}

/** The operations of the document, grouped by tag in the document's tag order. */
export function referenceView(doc: Doc): ReferenceView {
  const info = doc.info as { title: string; version: string; description: string }
  const tags = (doc.tags as Array<{ name: string; description: string }>) ?? []
  const groups = tags.map((t) => ({ tag: t.name, description: t.description, operations: [] as OperationView[] }))
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const body = op.requestBody as JsonSchema | undefined
      const bc = body ? firstContent(body.content) : undefined
      const view: OperationView = {
        id: String(op.operationId),
        method: method.toUpperCase(),
        path,
        summary: String(op.summary ?? ''),
        ...(op.description ? { description: String(op.description) } : {}),
        planned: op['x-canopy-planned'] === true,
        security: ((op.security as Array<Record<string, unknown>>) ?? []).flatMap((s) => Object.keys(s)),
        params: ((op.parameters as JsonSchema[]) ?? []).map((p) => ({
          name: String(p.name),
          in: String(p.in),
          required: p.required === true,
          type: describeSchema(p.schema as JsonSchema),
          ...(p.description ? { description: String(p.description) } : {}),
        })),
        ...(bc
          ? { body: { contentType: bc.contentType, type: describeSchema(bc.schema), schema: pretty(bc.schema), required: body!.required === true, ...(body!.description ? { description: String(body!.description) } : {}) } }
          : {}),
        answers: Object.entries(op.responses as Record<string, JsonSchema>).map(([status, r]) => answerView(doc, status, r)),
      }
      const tag = ((op.tags as string[]) ?? [])[0]
      const g = groups.find((x) => x.tag === tag) ?? groups[groups.push({ tag, description: '', operations: [] }) - 1]
      g.operations.push(view)
    }
  }
  const tables = Object.keys(doc.components.schemas as object)
    .filter((k) => k.startsWith('Record_'))
    .map((k) => k.slice('Record_'.length))
  return { title: info.title, version: info.version, description: info.description, groups, tables }
}

/** One table's record schema as a list of fields; null when the document has no such table. */
export function tableView(doc: Doc, key: string): TableView | null {
  const s = (doc.components.schemas as Record<string, JsonSchema>)[`Record_${key}`]
  if (!s) return null
  const required = new Set((s.required as string[]) ?? [])
  const fields = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>).map(([k, p]) => ({
    key: k,
    title: String(p.title ?? ''),
    type: describeSchema(p),
    required: required.has(k),
    readOnly: p.readOnly === true,
    ...(p.description ? { description: String(p.description) } : {}),
  }))
  return { key, title: String(s.title ?? key), description: String(s.description ?? ''), fields }
}
