/** Sales-side lookups (→ MetrcCustomerTypes) and patients (→ MetrcPatients). */
import { z } from 'zod'
import { REF } from '../reference'
import { patientWire } from '../wire'
import { Refusal } from '../refusal'
import { day, newId, write, zCount, zDate, zText, type Family } from './kit'

const Patient = z
  .object({
    LicenseNumber: zText,
    LicenseEffectiveStartDate: zDate,
    LicenseEffectiveEndDate: zDate,
    RecommendedPlants: zCount.min(0),
    RecommendedSmokableQuantity: z.number().min(0),
    HasSalesLimitExemption: z.boolean().default(false),
    ActualDate: zDate,
  })
  .passthrough()

export const sales: Family = {
  lists: {
    '/sales/v2/customertypes': { license: 'none', shape: 'bare', rows: () => REF.customerTypes },
    '/patients/v2/active': { license: 'required', shape: 'paged', wire: patientWire, rows: (_s, f) => f!.patients },
  },
  byId: { patients: { rows: (f) => f.patients, wire: patientWire } },
  writes: {
    'POST /patients/v2': write({
      schema: Patient,
      gate: (l) => {
        if (l.CanGrowPlants) throw new Refusal(403, `License ${l.Number} (${l.LicenseType}) does not serve patients.`)
      },
      check: (o, err, ctx, earlier) => {
        if (ctx.f.patients.some((p) => p.LicenseNumber === o.LicenseNumber) || earlier.some((e) => e.LicenseNumber === o.LicenseNumber)) err(`Patient ${o.LicenseNumber} already exists.`)
        if (Date.parse(o.LicenseEffectiveEndDate) < Date.parse(o.LicenseEffectiveStartDate)) err('LicenseEffectiveEndDate is before LicenseEffectiveStartDate.')
      },
      apply: (o, ctx) => {
        const Id = newId(ctx)
        ctx.f.patients.push({ Id, PatientId: Id, LicenseNumber: o.LicenseNumber, RegistrationDate: day(o.ActualDate), LicenseEffectiveStartDate: day(o.LicenseEffectiveStartDate), LicenseEffectiveEndDate: day(o.LicenseEffectiveEndDate), RecommendedPlants: o.RecommendedPlants, RecommendedSmokableQuantity: o.RecommendedSmokableQuantity, HasSalesLimitExemption: o.HasSalesLimitExemption, OtherFacilitiesCount: 0, LastModified: ctx.now })
        return Id
      },
    }),
  },
}
