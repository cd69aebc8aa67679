/**
 * SQL text for collections: table names, field expressions for sorting, filtering and indexing.
 * Identifiers are never taken from user text unless they pass the strict patterns below, and
 * values always travel as bound parameters.
 */
import type { FieldDef, TableSchema } from '../schemas/table-schema'

const COLLECTION_RE = /^[a-z][a-z0-9_]{0,50}$/
const FIELD_RE = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/

export class BadIdentifierError extends Error {}

export function isCollectionName(name: string): boolean {
  return COLLECTION_RE.test(name)
}

/** Physical table of a collection: c_<name>. */
export function tableOf(collection: string): string {
  if (!COLLECTION_RE.test(collection)) throw new BadIdentifierError(`"${collection.slice(0, 60)}" is not a collection name`)
  return `c_${collection}`
}

export function isFieldKey(key: string): boolean {
  return FIELD_RE.test(key)
}

/** A JSON key as a SQL string literal (keys are validated, so no quoting surprises). */
export function keyLit(key: string): string {
  if (!FIELD_RE.test(key)) throw new BadIdentifierError(`"${key.slice(0, 60)}" is not a field name`)
  return `'${key}'`
}

export type ExprKind = 'column' | 'number' | 'measure' | 'date' | 'text'

/** How a field sorts: numbers as numbers, measures in base units, dates chronologically, text case-insensitively. */
export function kindOf(field: Pick<FieldDef, 'type' | 'format'> | undefined, key: string): ExprKind {
  if (key === 'cts' || key === 'ts') return 'column'
  if (!field) return 'text'
  if (field.type === 'number' || field.type === 'currency' || field.format === 'currency') return 'number'
  if (field.type === 'measure' || field.format === 'measure' || field.format?.startsWith('measure:')) return 'measure'
  if (field.type === 'date' || field.format === 'date') return 'date'
  return 'text'
}

/** The expression a field sorts by. Indexes are built on exactly this expression. */
export function sortExpr(schema: TableSchema | undefined, key: string): string {
  const field = schema?.fields.find((f) => f.key === key)
  switch (kindOf(field, key)) {
    case 'column':
      return key
    case 'number':
      return `canopy_num(doc -> ${keyLit(key)})`
    case 'measure':
      return `canopy_measure(doc -> ${keyLit(key)})`
    case 'date':
      // dates are stored as ISO-8601 UTC strings, so byte order is time order
      return `((doc ->> ${keyLit(key)}) COLLATE "C")`
    case 'text':
      return `(lower(doc ->> ${keyLit(key)}) COLLATE "C")`
  }
}

/** The expression a text search runs on (trigram-indexed for searchable fields). */
export function searchExpr(key: string): string {
  if (key === 'cts' || key === 'ts') return `(${key}::text)`
  return `(doc ->> ${keyLit(key)})`
}

/** User text as a literal ILIKE pattern: %, _ and \ lose their meaning. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

function shortHash(s: string): string {
  let h = 2166136261
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619)
  return (h >>> 0).toString(36)
}

/** Index name within PostgreSQL's 63-character limit, unique per (table, purpose, key). */
export function indexName(table: string, purpose: 's' | 'q' | 'r', key: string): string {
  const n = `${table}__${purpose}_${key}`.toLowerCase()
  return n.length <= 63 ? n : `${n.slice(0, 54)}_${shortHash(n)}`
}

/** CREATE TABLE and CREATE INDEX statements for a collection, idempotent. */
/** `trgmSchema`: where the pg_trgm extension lives (public unless an install put it elsewhere). */
export function collectionDdl(collection: string, schema: TableSchema | undefined, trgmSchema = 'public'): string[] {
  const t = tableOf(collection)
  const out = [
    `CREATE TABLE IF NOT EXISTS ${t} (
      org text NOT NULL,
      id text NOT NULL,
      doc jsonb NOT NULL,
      cts timestamptz NOT NULL DEFAULT now(),
      ts timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (org, id))`,
    `CREATE INDEX IF NOT EXISTS ${indexName(t, 's', 'cts')} ON ${t} (org, cts, id)`,
    `CREATE INDEX IF NOT EXISTS ${indexName(t, 's', 'ts')} ON ${t} (org, ts, id)`,
  ]
  if (!schema) return out
  for (const f of schema.fields) {
    if (f.key === 'cts' || f.key === 'ts' || f.key === '_id') continue
    if (f.sortable || f.filter || f.key === schema.dateField || f.key === schema.defaultSort?.key) {
      out.push(`CREATE INDEX IF NOT EXISTS ${indexName(t, 's', f.key)} ON ${t} (org, ${sortExpr(schema, f.key)}, id)`)
    }
    if (f.filter) {
      out.push(`CREATE INDEX IF NOT EXISTS ${indexName(t, 'q', f.key)} ON ${t} USING gin (${searchExpr(f.key)} "${trgmSchema.replace(/"/g, '')}".gin_trgm_ops)`)
    }
    // a reference column (id:<table>:<field>) is joined and filtered by the id itself
    if (f.format?.startsWith('id:')) {
      out.push(`CREATE INDEX IF NOT EXISTS ${indexName(t, 'r', f.key)} ON ${t} (org, (doc ->> ${keyLit(f.key)}))`)
    }
  }
  return out
}
