/**
 * One JSON Schema per table the product ships with (the seeded table schemas, app/seed): the
 * table schema normalised (normalizeSchema), compiled into the zod schema every record write is
 * validated with (recordSchema, app/forms/record-schema.ts), then into JSON Schema. The field
 * rules are those of a create through the API (dates on any minute); the table's save rules
 * (SPEC §5) are not expressible as JSON Schema and are named in the description instead.
 *
 * Read-only fields and the server's keys (`_id`, `cts`, `ts`, `octs`) are refused in a write and
 * present in an answer: they are `readOnly` here, which is what OpenAPI means by it.
 */
import { hasSaveRules } from '../../forms/save-rules'
import { genericFlags, isEditable, RECORD_FLAG_LABELS, recordSchema, SYSTEM_KEYS } from '../../forms/record-schema'
import { normalizeSchema, type TableSchema } from '../../schemas/table-schema'
import { allSchemaInputs } from '../../seed/index.server'
import { toJsonSchema, type JsonSchema } from './json-schema'

/** The component name of a table's record schema. */
export const recordSchemaName = (table: string) => `Record_${table}`

const SYSTEM: Record<(typeof SYSTEM_KEYS)[number], JsonSchema> = {
  _id: { type: 'string', description: 'The record id (decision 002); given by the server on create.' },
  cts: { type: 'string', format: 'date-time', description: 'Created (set by the server; admin and super may change it in the console).' },
  ts: { type: 'string', format: 'date-time', description: 'Last updated (set by the server; send it back as If-Match to refuse a lost update).' },
  octs: { type: 'string', format: 'date-time', description: 'Original created time, for imported records.' },
}

/** Types whose blank input ('' or spaces) is stored as "no value" (null) when the field is optional. */
const LIST_TYPES = new Set(['check', 'status', 'multilist', 'gaugearray', 'array'])
const BLANK: JsonSchema = { type: 'string', pattern: '^\\s*$', description: 'Blank: no value (stored records may hold it).' }

/** The seeded table schemas, normalised, sorted by key. */
export function shippedTables(): TableSchema[] {
  return allSchemaInputs()
    .map(normalizeSchema)
    .sort((a, b) => a.key.localeCompare(b.key))
}

/** The JSON Schema of one table's records. */
export function tableRecordSchema(table: TableSchema): JsonSchema {
  const compiled = recordSchema(table, { mode: 'create', anyMinute: true })
  // the left side is the fields' object; the right side runs the save rules and adds no keys
  const out = toJsonSchema(compiled._def.left)
  const props = (out.properties ?? {}) as Record<string, JsonSchema>
  for (const f of table.fields) {
    const p = props[f.key]
    if (!p) continue
    p.title = f.label
    if (!isEditable(f)) {
      // compiled as "refuse any value": in an answer it is whatever the server stored
      props[f.key] = { title: f.label, readOnly: true, description: 'Read-only: set by the server or by another screen, refused in a write.' }
    } else if (!f.required && !LIST_TYPES.has(f.type)) {
      // the zod schema's preprocess reads a blank as null; its JSON Schema shows only the inner type
      const { title, ...rest } = p
      props[f.key] = Array.isArray(rest.anyOf) && Object.keys(rest).length === 1 ? { title, anyOf: [...rest.anyOf, BLANK] } : { title, anyOf: [rest, BLANK] }
    }
    if (f.type === 'date' && isEditable(f)) props[f.key].description = 'A date-time: ISO 8601 with an offset, or a facility wall time YYYY-MM-DDTHH:mm; stored as UTC ISO.'
  }
  for (const key of SYSTEM_KEYS) props[key] = { ...SYSTEM[key], readOnly: true }
  // the generic record fields every table takes (SPEC §3): absent means yes
  for (const key of genericFlags(table))
    props[key] = {
      title: RECORD_FLAG_LABELS[key],
      type: 'string',
      enum: ['yes', 'no'],
      description: key === 'IsUsed' ? 'no: the record is inactive (the table shows active records unless asked for all).' : `no: the row is locked against ${key === 'ed' ? 'changes' : 'deletion'} for everyone but super. Only admin and super may set it.`,
    }
  const rules = hasSaveRules(table.key) ? ' Its save rules (SPEC §5) also apply: a write that breaks one is refused with 400 and the rule\'s message.' : ''
  return {
    title: table.label,
    description: `A record of ${table.key} (${table.label}).${rules} Keys the table does not define are ignored.`,
    ...out,
    properties: props,
  }
}

/** `components.schemas` entries for every shipped table. */
export function tableComponents(tables: TableSchema[]): Record<string, JsonSchema> {
  return Object.fromEntries(tables.map((t) => [recordSchemaName(t.key), tableRecordSchema(t)]))
}
