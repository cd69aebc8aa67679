/** Strains (→ MetrcSTrains): lists, create, update. */
import { z } from 'zod'
import { byName, newId, same, write, zText, type Family } from './kit'

const Strain = z
  .object({
    Id: z.number().int().optional(),
    Name: zText,
    TestingStatus: z.enum(['None', 'InHouse', 'ThirdParty']).default('None'),
    ThcLevel: z.number().min(0).max(1).nullish(),
    CbdLevel: z.number().min(0).max(1).nullish(),
    IndicaPercentage: z.number().min(0).max(100).default(0),
    SativaPercentage: z.number().min(0).max(100).default(0),
  })
  .passthrough()
type StrainRow = z.infer<typeof Strain>
const fields = (o: StrainRow) => ({ Name: o.Name, TestingStatus: o.TestingStatus, ThcLevel: o.ThcLevel ?? null, CbdLevel: o.CbdLevel ?? null, IndicaPercentage: o.IndicaPercentage, SativaPercentage: o.SativaPercentage, Genetics: `${o.IndicaPercentage}% Indica / ${o.SativaPercentage}% Sativa` })
const percentages = (o: StrainRow, err: (m: string) => void) => {
  if (o.IndicaPercentage + o.SativaPercentage > 100) err('IndicaPercentage and SativaPercentage add up to more than 100.')
}

export const strains: Family = {
  lists: {
    '/strains/v2/active': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.strains.filter((s) => !s.IsArchived) },
    '/strains/v2/inactive': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.strains.filter((s) => s.IsArchived) },
  },
  byId: { strains: { rows: (f) => f.strains } },
  writes: {
    'POST /strains/v2': write({
      schema: Strain,
      check: (o, err, ctx, earlier) => {
        if (byName(ctx.f.strains, o.Name) || earlier.some((e) => same(e.Name, o.Name))) err(`Strain ${o.Name} already exists.`)
        percentages(o, err)
      },
      apply: (o, ctx) => {
        const Id = newId(ctx)
        ctx.f.strains.push({ Id, ...fields(o), IsUsed: false, LastModified: ctx.now })
        return Id
      },
    }),
    'PUT /strains/v2': write({
      schema: Strain.extend({ Id: z.number().int() }),
      check: (o, err, ctx) => {
        if (!ctx.f.strains.some((s) => s.Id === o.Id)) err(`Strain ${o.Id} does not exist in the current Facility.`)
        if (ctx.f.strains.some((s) => s.Id !== o.Id && same(s.Name, o.Name))) err(`Strain ${o.Name} already exists.`)
        percentages(o, err)
      },
      apply: (o, ctx) => {
        const s = ctx.f.strains.find((x) => x.Id === o.Id)!
        Object.assign(s, fields(o), { LastModified: ctx.now })
        return s.Id
      },
    }),
  },
}
