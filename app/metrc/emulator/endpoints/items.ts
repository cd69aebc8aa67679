/** Items (→ MetrcItems), categories (→ MetrcItemCategory) and brands (→ MetrcItemBrand). */
import { z } from 'zod'
import { REF } from '../reference'
import { categoryWire, itemWire } from '../wire'
import { unitKind, unitName } from '../rules'
import { byName, missing, newId, same, write, zOpt, zText, type Family, type WriteContext } from './kit'

const Item = z.object({ Id: z.number().int().optional(), Name: zText, ItemCategory: zText, UnitOfMeasure: zText, Strain: zOpt, ItemBrand: zOpt }).passthrough()
type ItemRow = z.infer<typeof Item>
const category = (name: string) => REF.itemCategories.find((c) => same(c.Name, name))

function checkItem(o: ItemRow, err: (m: string) => void, ctx: WriteContext) {
  const cat = category(o.ItemCategory)
  if (!cat) return err(`The Product Category "${o.ItemCategory}" is invalid. Valid values are: ${REF.itemCategories.map((c) => c.Name).join(', ')}.`)
  const kind = unitKind(o.UnitOfMeasure)
  if (!kind) err(`Unit of measure ${o.UnitOfMeasure} is not valid.`)
  else if (kind !== cat.QuantityType) err(`Unit of measure ${o.UnitOfMeasure} does not match the category's ${cat.QuantityType} quantity type.`)
  if (cat.RequiresStrain && !byName(ctx.f.strains, o.Strain)) err(missing('Strain', o.Strain))
  if (o.ItemBrand && !byName(REF.itemBrands as never, o.ItemBrand)) err(`Item brand ${o.ItemBrand} is not valid.`)
  checkDemands(o, err)
}
/** what the category demands beside the name and unit: a unit weight, volume, THC content… (METRC's Requires* flags) */
const DEMANDS: Array<[string, string]> = [
  ['RequiresUnitWeight', 'UnitWeight'],
  ['RequiresUnitVolume', 'UnitVolume'],
  ['RequiresUnitThcContent', 'UnitThcContent'],
  ['RequiresUnitThcPercent', 'UnitThcPercent'],
  ['RequiresUnitCbdContent', 'UnitCbdContent'],
  ['RequiresUnitCbdPercent', 'UnitCbdPercent'],
]
function checkDemands(o: ItemRow, err: (m: string) => void) {
  const cat = category(o.ItemCategory) as Record<string, unknown> | undefined
  if (!cat) return
  for (const [flag, field] of DEMANDS) {
    if (!cat[flag]) continue
    const v = (o as Record<string, unknown>)[field]
    if (typeof v !== 'number' || !(v > 0)) err(`Items in category ${String(cat.Name)} require ${field}.`)
    else if (!(o as Record<string, unknown>)[`${field}UnitOfMeasure`]) err(`${field} requires ${field}UnitOfMeasure.`)
    else if (!unitName((o as Record<string, unknown>)[`${field}UnitOfMeasure`])) err(`${field}UnitOfMeasure ${String((o as Record<string, unknown>)[`${field}UnitOfMeasure`])} is not valid.`)
  }
}
/** the body's other METRC fields as the item keeps them (a request's `…UnitOfMeasure` is the record's `…UnitOfMeasureName`) */
function extraFields(o: ItemRow): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) {
    if (['Id', 'Name', 'ItemCategory', 'UnitOfMeasure', 'Strain', 'ItemBrand'].includes(k)) continue
    if (/^(Unit|ServingSize|SupplyDurationDays|NumberOfDoses|PublicIngredients|Description|Allergens|AdministrationMethod|GlobalProductName)/.test(k)) out[/UnitOfMeasure$/.test(k) ? `${k}Name` : k] = /UnitOfMeasure$/.test(k) ? (unitName(v) ?? v ?? null) : (v ?? null)
  }
  return out
}
function itemFields(o: ItemRow, ctx: WriteContext) {
  const cat = category(o.ItemCategory)!
  const st = byName(ctx.f.strains, o.Strain)
  const brand = REF.itemBrands.find((b) => same(b.Name, o.ItemBrand))
  return { ...extraFields(o), Name: o.Name, ProductCategoryName: cat.Name, ProductCategoryType: cat.ProductCategoryType, QuantityType: cat.QuantityType, UnitOfMeasureName: unitName(o.UnitOfMeasure), StrainId: st?.Id ?? null, StrainName: st?.Name ?? null, ItemBrandId: brand?.Id ?? null, ItemBrandName: brand?.Name ?? null }
}

export const items: Family = {
  lists: {
    '/items/v2/active': { license: 'required', shape: 'paged', modified: true, wire: itemWire, rows: (_s, f) => f!.items.filter((i) => !i.IsArchived) },
    '/items/v2/inactive': { license: 'required', shape: 'paged', modified: true, wire: itemWire, rows: (_s, f) => f!.items.filter((i) => i.IsArchived) },
    // licenseNumber optional: all categories either way
    '/items/v2/categories': { license: 'optional', shape: 'paged', wire: categoryWire, rows: () => REF.itemCategories },
    '/items/v2/brands': { license: 'required', shape: 'paged', rows: () => REF.itemBrands },
  },
  byId: { items: { rows: (f) => f.items, wire: itemWire } },
  writes: {
    'POST /items/v2': write({
      schema: Item,
      check: (o, err, ctx, earlier) => {
        if (byName(ctx.f.items, o.Name) || earlier.some((e) => same(e.Name, o.Name))) err(`Item ${o.Name} already exists.`)
        checkItem(o, err, ctx)
      },
      apply: (o, ctx) => {
        const Id = newId(ctx)
        ctx.f.items.push({ Id, ...itemFields(o, ctx), DefaultLabTestingState: 'NotSubmitted', ApprovalStatus: 'Approved', IsUsed: false, LastModified: ctx.now })
        return Id
      },
    }),
    'PUT /items/v2': write({
      schema: Item.extend({ Id: z.number().int() }),
      check: (o, err, ctx) => {
        const it = ctx.f.items.find((i) => i.Id === o.Id)
        if (!it) return err(`Item ${o.Id} does not exist in the current Facility.`)
        if (ctx.f.items.some((i) => i.Id !== o.Id && same(i.Name, o.Name))) err(`Item ${o.Name} already exists.`)
        checkItem(o, err, ctx)
        // a used item keeps its kind: its packages are counted or weighed already
        const cat = category(o.ItemCategory)
        if (cat && it.IsUsed && cat.QuantityType !== it.QuantityType) err(`Item ${String(it.Name)} is in use and cannot change from ${String(it.QuantityType)} to ${cat.QuantityType}.`)
      },
      apply: (o, ctx) => {
        const it = ctx.f.items.find((i) => i.Id === o.Id)!
        Object.assign(it, itemFields(o, ctx), { LastModified: ctx.now })
        return it.Id
      },
    }),
  },
}
