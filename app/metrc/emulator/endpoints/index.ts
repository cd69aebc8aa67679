/** Every endpoint family of the emulator, merged into one table of lists, by-id reads and writes. */
import { facilities } from './facilities'
import { harvests } from './harvests'
import { items } from './items'
import type { ByIdDef, Family, ListDef, WriteOp } from './kit'
import { labTests } from './lab-tests'
import { locations } from './locations'
import { packages } from './packages'
import { plantBatches } from './plant-batches'
import { plants } from './plants'
import { sales } from './sales'
import { strains } from './strains'
import { tags } from './tags'
import { transfers } from './transfers'
import { units } from './units'

export const FAMILIES: Record<string, Family> = { facilities, units, locations, strains, items, packages, plantBatches, plants, harvests, labTests, sales, transfers, tags }

export const LISTS: Record<string, ListDef> = Object.assign({}, ...Object.values(FAMILIES).map((f) => f.lists ?? {}))
export const BY_ID: Record<string, ByIdDef> = Object.assign({}, ...Object.values(FAMILIES).map((f) => f.byId ?? {}))
export const WRITES: Record<string, WriteOp<never>> = Object.assign({}, ...Object.values(FAMILIES).map((f) => f.writes ?? {}))
