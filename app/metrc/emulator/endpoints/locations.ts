/** Locations (→ MetrcRooms) and location types (→ MetrcLocationTypes); create and update. */
import { z } from 'zod'
import { REF } from '../reference'
import { byName, newId, same, write, zText, type Family } from './kit'

const Location = z.object({ Id: z.number().int().optional(), Name: zText, LocationTypeName: zText }).passthrough()
const type = (name: string) => REF.locationTypes.find((t) => same(t.Name, name))
const flags = (t: (typeof REF.locationTypes)[number]) => ({ LocationTypeId: t.Id, LocationTypeName: t.Name, ForPlantBatches: t.ForPlantBatches, ForPlants: t.ForPlants, ForHarvests: t.ForHarvests, ForPackages: t.ForPackages })

export const locations: Family = {
  lists: {
    '/locations/v2/active': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.locations.filter((l) => !l.IsArchived) },
    '/locations/v2/inactive': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.locations.filter((l) => l.IsArchived) },
    '/locations/v2/types': { license: 'required', shape: 'paged', rows: () => REF.locationTypes },
  },
  byId: { locations: { rows: (f) => f.locations } },
  writes: {
    'POST /locations/v2': write({
      schema: Location,
      check: (o, err, ctx, earlier) => {
        if (byName(ctx.f.locations, o.Name) || earlier.some((e) => same(e.Name, o.Name))) err(`Location ${o.Name} already exists.`)
        if (!type(o.LocationTypeName)) err(`Location type ${o.LocationTypeName} is not valid.`)
      },
      apply: (o, ctx) => {
        const Id = newId(ctx)
        ctx.f.locations.push({ Id, Name: o.Name, ...flags(type(o.LocationTypeName)!), LastModified: ctx.now })
        return Id
      },
    }),
    'PUT /locations/v2': write({
      schema: Location.extend({ Id: z.number().int() }),
      check: (o, err, ctx) => {
        if (!ctx.f.locations.some((l) => l.Id === o.Id)) err(`Location ${o.Id} does not exist in the current Facility.`)
        if (ctx.f.locations.some((l) => l.Id !== o.Id && same(l.Name, o.Name))) err(`Location ${o.Name} already exists.`)
        if (!type(o.LocationTypeName)) err(`Location type ${o.LocationTypeName} is not valid.`)
      },
      apply: (o, ctx) => {
        const l = ctx.f.locations.find((x) => x.Id === o.Id)!
        Object.assign(l, { Name: o.Name, ...flags(type(o.LocationTypeName)!), LastModified: ctx.now })
        return l.Id
      },
    }),
  },
}
