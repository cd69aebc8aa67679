/**
 * Bulk edit (issue 31 item 4, decision 072): every editable table's selection bar offers "Bulk
 * edit": set one or more fields to one value on every selected row. It is a row action (decision
 * 038) that no schema needs to declare, so it runs where the others run: the confirm page asks for
 * the fields (blank: left as it is), Preview says what will change row by row (how many already
 * hold the value, which rows the table's save rules would refuse) and Confirm writes every row in
 * one transaction through ActionWork.update: each row's own rights (a row locked with ed = no refuses
 * the whole action), each field's form rules (the zod schema of the edit form), references that
 * must be records of the organisation, the save rules on each row as it will be stored, audit rows
 * and the METRC pushes the change calls for (a plant's new room is a location change).
 *
 * Fields it offers: the scalar ones one value can sensibly set on many rows (lists and references,
 * yes/no, numbers, amounts, text); never a table's unique or scanned identity (a tag), sub-tables,
 * files, documents, measures or computed fields.
 */
import { PLATFORM_ORG, isPlatformCollection } from '../route-map'
import { fieldSchema, isEditable, referenceOf } from '../forms/record-schema'
import { checkSaveRules } from '../forms/save-rules'
import { recordName } from '../forms/record-title'
import { formatCell } from '../format/format'
import type { Doc } from '../db/types'
import type { Queryable } from '../db/driver.server'
import { tableOf } from '../db/sql'
import type { FieldDef, RowActionDecl, TableSchema } from '../schemas/table-schema'
import { issueMessage } from '../utils/zod-messages'
import { badInput, isAppError } from '../utils/errors'
import type { ActionContext, ActionInput, AskField, RowActionDef } from './row-actions.server'
import { listOptions, type ListOption } from './list-options.server'

export const BULK_EDIT: RowActionDecl = { key: 'bulk-edit', label: 'Bulk edit', min: 1 }

/** Form names of the confirm page: `bulk.{field}` (blank: unchanged). */
const NAME = (key: string) => `bulk.${key}`
const KINDS: Partial<Record<FieldDef['type'], AskField['kind']>> = { list: 'select', check: 'select', status: 'select', number: 'number', currency: 'number', text: 'text', textarea: 'textarea' }

/** The fields bulk edit sets on this table. */
export function bulkFields(schema: TableSchema): FieldDef[] {
  return schema.fields.filter((f) => isEditable(f) && KINDS[f.type] && !f.scanner && !(f.key === schema.defaultSort?.key && f.type === 'text'))
}

async function optionsOf(c: ActionContext, f: FieldDef): Promise<ListOption[]> {
  if (f.type === 'check' || f.type === 'status') return [{ value: 'yes', label: 'Yes' }, { value: 'no', label: 'No' }]
  return listOptions(c.store, c.org, f)
}

interface Chosen {
  field: FieldDef
  value: unknown
  /** the value in words (a room's name, not its id) */
  shown: string
}

/** The fields the person set, each parsed by its form rule; throws BAD_INPUT naming every bad one. */
async function chosen(c: ActionContext, q: Queryable, schema: TableSchema, input: ActionInput, strict: boolean): Promise<Chosen[]> {
  const out: Chosen[] = []
  const problems: string[] = []
  for (const f of bulkFields(schema)) {
    const raw = input.get(NAME(f.key)).trim()
    if (!raw) continue
    const parsed = fieldSchema(f, c.timeZone).safeParse(raw)
    if (!parsed.success) {
      problems.push(parsed.error.issues.map(issueMessage).join(' '))
      continue
    }
    let shown = formatCell(parsed.data, f.type === 'currency' ? 'currency' : '', { timeZone: c.timeZone })
    const ref = referenceOf(f)
    if (ref) {
      // read on the caller's connection: inside the action's transaction when it runs
      const found = (await c.store.schemas.hasCollection(ref.table, q)) ? (await q.query<{ doc: Record<string, unknown> }>(`SELECT doc FROM ${tableOf(ref.table)} WHERE org = $1 AND id = $2`, [isPlatformCollection(ref.table) ? PLATFORM_ORG : c.org, String(parsed.data)])).rows[0]?.doc : undefined
      if (!found) {
        problems.push(`${f.label}: choose one of the listed records.`)
        continue
      }
      shown = String(found[ref.labelField] ?? shown)
    }
    out.push({ field: f, value: parsed.data, shown: shown || String(parsed.data) })
  }
  if (problems.length) throw badInput(`${problems.join(' ')} Nothing was changed.`)
  if (strict && !out.length) throw badInput('Choose a value for at least one field: blank fields stay as they are. Nothing was changed.')
  return out
}

const rowName = (schema: TableSchema, r: Doc) => recordName(schema, r) ?? r._id
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/** Bulk edit on one table (its schema read when the page is drawn or the action runs). */
export function bulkEditOf(collection: string): RowActionDef {
  const schemaOf = async (c: ActionContext, q: Queryable = c.store.db) => {
    const s = await c.store.schemas.get(collection, q)
    if (!s) throw badInput('This table has no schema.')
    return s
  }
  let named: TableSchema | undefined
  return {
    preview: true,
    rowLabel: (r) => (named ? rowName(named, r) : r._id),
    async ask(c, _rows, input) {
      const schema = (named = await schemaOf(c))
      const fields: AskField[] = []
      for (const f of bulkFields(schema)) {
        const kind = KINDS[f.type]!
        const value = input?.get(NAME(f.key)) ?? ''
        fields.push({ key: NAME(f.key), label: f.label, kind, blank: 'Leave unchanged', ...(value ? { value } : {}), ...(kind === 'select' ? { options: await optionsOf(c, f) } : {}) })
      }
      return fields
    },
    async describe(c, rows, input) {
      const schema = (named = await schemaOf(c))
      // a value that does not pass is said here, so the page keeps what was typed beside it
      const set = await chosen(c, c.store.db, schema, input, false).catch((e: unknown) => (isAppError(e) ? e.message : Promise.reject(e)))
      if (typeof set === 'string') return [set]
      if (!set.length) return [`${rows.length} selected rows. Choose the fields to set below (blank fields stay as they are), then Preview or Confirm.`]
      const lines = set.map((s) => {
        const already = rows.filter((r) => same(r[s.field.key], s.value)).length
        return `${s.field.label} → ${s.shown} on ${rows.length} rows${already ? ` (${already} already ${already === 1 ? 'has' : 'have'} it)` : ''}.`
      })
      // the save rules on each row as it will be stored: which rows Confirm would be refused for
      const refused = rows.flatMap((r) => {
        const next = { ...r, ...Object.fromEntries(set.map((s) => [s.field.key, s.value])) }
        const { errors } = checkSaveRules(collection, next, { mode: 'update' })
        return errors.length ? [`${rowName(schema, r)}: ${errors.map((e) => e.message).join(' ')}`] : []
      })
      if (refused.length) lines.push(`${refused.length} of the rows would be refused by the table's rules, so nothing would be saved: ${refused.slice(0, 10).join('; ')}${refused.length > 10 ? '; …' : ''}`)
      return lines
    },
    async run(w, rows, input) {
      const schema = (named = await schemaOf(w, w.tx))
      const set = await chosen(w, w.tx, schema, input, true)
      const patch = Object.fromEntries(set.map((s) => [s.field.key, s.value]))
      const changes = rows.filter((r) => set.some((s) => !same(r[s.field.key], s.value))).map((before) => ({ before, patch }))
      await w.update(collection, changes)
      const what = set.map((s) => `${s.field.label} → ${s.shown}`).join(', ')
      return `${what}: ${changes.length} of ${rows.length} rows changed${changes.length < rows.length ? ` (${rows.length - changes.length} already had it)` : ''}.`
    },
  }
}
