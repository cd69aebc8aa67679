/**
 * Pick-lists METRC keeps (issue 21): item categories, units, waste methods and reasons, package
 * types are per license and differ by state, so the editable Metrc tables offer the facility's own
 * METRC values — its synced reference tables — rather than Canopy's fixed list, which refused
 * METRC's values ("Clipping", "Vape Cartridge (volume - each)"). Until a reference table has been
 * synced, the schema's list stands. The value a record already holds stays allowed (an edit of
 * another field never fails on it). Used by the edit form (its options and the browser's schema)
 * and by the one write path (records/write.server.ts), so every write runs the same list.
 */
import type { Database } from '../db/index.server'
import { tableOf } from '../db/sql'
import type { TableSchema } from '../schemas/table-schema'

interface Source {
  from: string
  /** only the reference rows whose field has this value ('yes' for check fields) */
  where?: [string, string]
}

const WEIGHT: Source = { from: 'metrc_units', where: ['QuantityType', 'WeightBased'] }
const ANY_UNIT: Source = { from: 'metrc_units' }

export const METRC_PICK_LISTS: Record<string, Record<string, Source>> = {
  metrc_items: { ProductCategoryName: { from: 'metrc_item_categories' }, UnitOfMeasureName: ANY_UNIT, UnitWeightUnitOfMeasureName: WEIGHT },
  metrc_wmix: { WasteMethodName: { from: 'metrc_waste_methods', where: ['ForPlants', 'yes'] }, ReasonName: { from: 'metrc_waste_reasons' }, UnitOfMeasureName: WEIGHT },
  metrc_packages: { UnitOfMeasureName: ANY_UNIT, PackageType: { from: 'metrc_package_types' } },
}

/** `schema` with its METRC pick-lists taken from the facility's METRC reference tables (and `row`'s values kept). */
export async function withMetrcPickLists(database: Pick<Database, 'db' | 'schemas'>, org: string, schema: TableSchema, row?: Record<string, unknown> | null): Promise<TableSchema> {
  const lists = METRC_PICK_LISTS[schema.key]
  if (!lists) return schema
  const fields = await Promise.all(
    schema.fields.map(async (f) => {
      const src = lists[f.key]
      if (!src || f.type !== 'list' || !(await database.schemas.hasCollection(src.from))) return f
      const params: unknown[] = [org]
      let where = ''
      if (src.where) {
        params.push(src.where[0], src.where[1])
        where = ` AND doc->>$2 = $3`
      }
      const names = (await database.db.query<{ n: string }>(`SELECT DISTINCT doc->>'Name' AS n FROM ${tableOf(src.from)} WHERE org = $1${where} AND doc->>'Name' IS NOT NULL ORDER BY 1`, params)).rows.map((r) => r.n)
      if (!names.length) return f
      const held = row && typeof row[f.key] === 'string' && row[f.key] !== '' ? [row[f.key] as string] : []
      return { ...f, en: { ...f.en, list: [...new Set([...names, ...held])] } }
    }),
  )
  return { ...schema, fields }
}
