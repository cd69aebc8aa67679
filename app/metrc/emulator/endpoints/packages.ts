/**
 * Packages (→ MetrcPackages, MetrcPackageTypes, MetrcPackageAdjust): lists, create (a new package
 * tag, an active item, a unit of the item's kind, ingredients taken off their sources), create for
 * testing (the same, marked a testing sample, from at least one source package), adjust
 * (a signed change in any unit of the same kind, never below zero), move (to a location for
 * packages), finish (at zero) and unfinish.
 */
import { z } from 'zod'
import { REF } from '../reference'
import { packageWire } from '../wire'
import { sameUnitKind, tagProblem, unitKind, unitName } from '../rules'
import { byLabel, byName, day, inUnit, missing, newId, num, round4, same, unitAbbrev, useTag, write, zBool, zDate, zNumber, zOpt, zText, type Family } from './kit'

const Ingredient = z.object({ Package: zText, Quantity: zNumber.positive('must be more than 0'), UnitOfMeasure: zText }).passthrough()
const Create = z
  .object({
    Tag: zText,
    Location: zOpt,
    Item: zText,
    Quantity: zNumber.positive('must be more than 0'),
    UnitOfMeasure: zText,
    Note: zOpt,
    IsProductionBatch: zBool,
    IsDonation: zBool,
    ProductRequiresRemediation: zBool,
    UseSameItem: zBool,
    ActualDate: zDate,
    Ingredients: z.array(Ingredient).max(100).default([]),
  })
  .passthrough()
const Adjust = z.object({ Label: zText, Quantity: zNumber.refine((n) => n !== 0, 'must not be 0 (it is the change)'), UnitOfMeasure: zText, AdjustmentReason: zText, AdjustmentDate: zDate, ReasonNote: zOpt }).passthrough()
const Finish = z.object({ Label: zText, ActualDate: zDate }).passthrough()
const Unfinish = z.object({ Label: zText }).passthrough()
const Move = z.object({ Label: zText, Location: zText, Sublocation: zOpt, MoveDate: zDate }).passthrough()

/** a package asked for more than it holds */
export const tooLittle = (p: Record<string, unknown>) => `Package ${String(p.Label)} does not hold that much.`
export const notActive = (label: string) => `Package ${label} is not an active package in the current Facility.`

const adjust = write({
  schema: Adjust,
  check: (o, err, ctx, earlier) => {
    const p = byLabel(ctx.f.packages, o.Label)
    if (!p || p.IsFinished) return err(notActive(o.Label))
    const reason = REF.adjustReasons.find((r) => same(r.Name, o.AdjustmentReason))
    if (!reason) err(`Adjustment reason ${o.AdjustmentReason} is not valid.`)
    else if (reason.RequiresNote && !o.ReasonNote) err(`Adjustment reason ${reason.Name} requires a note.`)
    if (!sameUnitKind(o.UnitOfMeasure, p.UnitOfMeasureName)) return err(`Unit of measure ${o.UnitOfMeasure} does not match package ${String(p.Label)} (${String(p.UnitOfMeasureName)}).`)
    const before = earlier.filter((e) => e.Label === o.Label && sameUnitKind(e.UnitOfMeasure, p.UnitOfMeasureName)).reduce((s, e) => s + inUnit(e.Quantity, e.UnitOfMeasure, String(p.UnitOfMeasureName)), 0)
    if (num(p.Quantity) + before + inUnit(o.Quantity, o.UnitOfMeasure, String(p.UnitOfMeasureName)) < 0) err(`Package ${String(p.Label)} cannot go below zero.`)
  },
  apply: (o, ctx) => {
    const p = byLabel(ctx.f.packages, o.Label)!
    p.Quantity = round4(num(p.Quantity) + inUnit(o.Quantity, o.UnitOfMeasure, String(p.UnitOfMeasureName)))
    p.LastModified = ctx.now
    return p.Id
  },
})

/** A new package (POST /packages/v2) or a lab sample (POST /packages/v2/testing: the same body, marked as a testing sample). */
const create = (testing: boolean) =>
  write({
    schema: Create,
    check: (o, err, ctx, earlier) => {
      const t = tagProblem(o.Tag, ctx.f.tags.package, new Set(earlier.map((e) => e.Tag)))
      if (t) err(t)
      const item = byName(ctx.f.items, o.Item)
      if (!item || item.IsArchived) return err(missing('Item', o.Item))
      const kind = unitKind(o.UnitOfMeasure)
      if (!kind) err(`Unit of measure ${o.UnitOfMeasure} is not valid.`)
      else if (kind !== item.QuantityType) err(`Unit of measure ${o.UnitOfMeasure} cannot be used with item ${String(item.Name)} (${String(item.QuantityType)}).`)
      if (o.Location && !byName(ctx.f.locations, o.Location)) err(missing('Location', o.Location))
      if (testing && !o.Ingredients.length) err('A testing package needs the package it is taken from (Ingredients).')
      for (const ing of o.Ingredients) {
        const src = byLabel(ctx.f.packages, ing.Package)
        if (!src || src.IsFinished || src.IsOnHold) err(notActive(ing.Package))
        else if (!sameUnitKind(ing.UnitOfMeasure, src.UnitOfMeasureName)) err(`Unit of measure ${ing.UnitOfMeasure} does not match package ${String(src.Label)}.`)
        else if (inUnit(ing.Quantity, ing.UnitOfMeasure, String(src.UnitOfMeasureName)) > num(src.Quantity)) err(tooLittle(src))
      }
    },
    apply: (o, ctx) => {
      const item = byName(ctx.f.items, o.Item)!
      for (const ing of o.Ingredients) {
        const src = byLabel(ctx.f.packages, ing.Package)!
        src.Quantity = round4(num(src.Quantity) - inUnit(ing.Quantity, ing.UnitOfMeasure, String(src.UnitOfMeasureName)))
        src.LastModified = ctx.now
      }
      useTag(ctx, 'package', o.Tag)
      item.IsUsed = true
      const loc = byName(ctx.f.locations, o.Location)
      const unit = unitName(o.UnitOfMeasure)!
      const Id = newId(ctx)
      ctx.f.packages.push({ Id, Label: o.Tag, PackageType: 'Product', ItemId: item.Id, ItemName: item.Name, ItemCategoryName: item.ProductCategoryName, ItemStrainName: item.StrainName, Quantity: o.Quantity, OriginalPackageQuantity: o.Quantity, UnitOfMeasureName: unit, UnitOfMeasureAbbreviation: unitAbbrev(unit), LocationId: loc?.Id ?? null, LocationName: loc?.Name ?? null, SourcePackageLabels: o.Ingredients.map((i) => i.Package).join(', ') || null, SourcePackageCount: o.Ingredients.length, PackagedDate: day(o.ActualDate), LabTestingState: 'NotSubmitted', IsTestingSample: testing, IsProductionBatch: o.IsProductionBatch ?? false, IsDonation: o.IsDonation ?? false, IsOnHold: false, IsFinished: false, FinishedDate: null, ArchivedDate: null, Note: o.Note ?? '', LastModified: ctx.now })
      return Id
    },
  })

export const packages: Family = {
  lists: {
    '/packages/v2/active': { license: 'required', shape: 'paged', modified: true, wire: (p: never, f) => packageWire(f, p), rows: (_s, f) => f!.packages.filter((p) => !p.IsFinished && !p.IsOnHold) },
    '/packages/v2/onhold': { license: 'required', shape: 'paged', modified: true, wire: (p: never, f) => packageWire(f, p), rows: (_s, f) => f!.packages.filter((p) => !p.IsFinished && p.IsOnHold) },
    '/packages/v2/inactive': { license: 'required', shape: 'paged', modified: true, wire: (p: never, f) => packageWire(f, p), rows: (_s, f) => f!.packages.filter((p) => p.IsFinished) },
    '/packages/v2/types': { license: 'none', shape: 'bare', rows: () => REF.packageTypes },
    '/packages/v2/adjust/reasons': { license: 'required', shape: 'paged', rows: () => REF.adjustReasons },
  },
  byId: { packages: { rows: (f) => f.packages, wire: (p, f) => packageWire(f, p) } },
  writes: {
    'POST /packages/v2': create(false),
    'POST /packages/v2/testing': create(true),
    'POST /packages/v2/adjust': adjust,
    'PUT /packages/v2/adjust': adjust,
    'PUT /packages/v2/finish': write({
      schema: Finish,
      check: (o, err, ctx) => {
        const p = byLabel(ctx.f.packages, o.Label)
        if (!p || p.IsFinished) return err(notActive(o.Label))
        if (num(p.Quantity) !== 0) err(`Package ${String(p.Label)} still holds ${String(p.Quantity)} ${String(p.UnitOfMeasureAbbreviation)}; adjust it to zero first.`)
      },
      apply: (o, ctx) => {
        const p = byLabel(ctx.f.packages, o.Label)!
        Object.assign(p, { IsFinished: true, FinishedDate: day(o.ActualDate), ArchivedDate: day(o.ActualDate), LastModified: ctx.now })
        return p.Id
      },
    }),
    'PUT /packages/v2/location': write({
      schema: Move,
      check: (o, err, ctx) => {
        const p = byLabel(ctx.f.packages, o.Label)
        if (!p || p.IsFinished) return err(notActive(o.Label))
        const loc = byName(ctx.f.locations, o.Location)
        if (!loc) return err(missing('Location', o.Location))
        if (loc.ForPackages === false) err(`Location ${String(loc.Name)} cannot hold packages.`)
      },
      apply: (o, ctx) => {
        const p = byLabel(ctx.f.packages, o.Label)!
        const loc = byName(ctx.f.locations, o.Location)!
        Object.assign(p, { LocationId: loc.Id, LocationName: loc.Name, LastModified: ctx.now })
        return p.Id
      },
    }),
    'PUT /packages/v2/unfinish': write({
      schema: Unfinish,
      check: (o, err, ctx) => {
        const p = byLabel(ctx.f.packages, o.Label)
        if (!p || !p.IsFinished) err(`Package ${o.Label} is not a finished package in the current Facility.`)
      },
      apply: (o, ctx) => {
        const p = byLabel(ctx.f.packages, o.Label)!
        Object.assign(p, { IsFinished: false, FinishedDate: null, ArchivedDate: null, LastModified: ctx.now })
        return p.Id
      },
    }),
  },
}
