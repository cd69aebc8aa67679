/**
 * Sales-side lookups (→ MetrcCustomerTypes), patients (→ MetrcPatients) and sales receipts
 * (issue 24): `POST /sales/v2/receipts` (METRC's RecordReceipts body: SalesDateTime, one of METRC's
 * customer types, Transactions of active packages of this facility, not on hold, each with its
 * quantity in a unit of the package's kind and its TotalAmount) takes the sold quantity off each
 * package, as METRC does; `GET /sales/v2/receipts/active` lists them.
 */
import { z } from 'zod'
import type { Row } from '../model'
import { REF } from '../reference'
import { patientWire } from '../wire'
import { Refusal } from '../refusal'
import { sameUnitKind, unitName } from '../rules'
import { byLabel, day, inUnit, newId, num, round4, same, write, zCount, zDate, zNumber, zOpt, zText, type Family, type WriteContext } from './kit'
import { notActive, tooLittle } from './packages'

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

const zMoney = z.number({ invalid_type_error: 'must be a number' }).min(0, 'must not be negative')
const Transaction = z
  .object({
    PackageLabel: zText,
    Quantity: zNumber.positive('must be more than 0'),
    UnitOfMeasure: zText,
    TotalAmount: zMoney,
    UnitThcPercent: z.number().nullish(),
    UnitThcContent: z.number().nullish(),
    UnitThcContentUnitOfMeasure: zOpt,
    UnitWeight: z.number().nullish(),
    UnitWeightUnitOfMeasure: zOpt,
    InvoiceNumber: zOpt,
    Price: zMoney.nullish(),
    ExciseTax: zMoney.nullish(),
    CityTax: zMoney.nullish(),
    CountyTax: zMoney.nullish(),
    MunicipalTax: zMoney.nullish(),
    DiscountAmount: zMoney.nullish(),
    SubTotal: zMoney.nullish(),
    SalesTax: zMoney.nullish(),
    QrCodes: z.array(z.string()).nullish(),
  })
  .passthrough()
const Receipt = z
  .object({
    SalesDateTime: zDate,
    ExternalReceiptNumber: zOpt,
    SalesCustomerType: zText,
    PatientLicenseNumber: zOpt,
    CaregiverLicenseNumber: zOpt,
    IdentificationMethod: zOpt,
    PatientRegistrationLocationId: z.number().int().nullish(),
    Transactions: z.array(Transaction).min(1, 'must have at least one transaction'),
  })
  .passthrough()
type ReceiptRow = z.infer<typeof Receipt>

/** METRC takes SalesDateTime in the facility's own time, without a zone: later than any zone's now is in the future */
const LATEST_ZONE_MS = 14 * 3_600_000

/** what each package of this receipt and the ones before it in the body take, in the package's unit */
function taken(rows: ReceiptRow[], p: Row): number {
  return rows.flatMap((r) => r.Transactions).filter((t) => same(t.PackageLabel, p.Label) && sameUnitKind(t.UnitOfMeasure, p.UnitOfMeasureName)).reduce((n, t) => n + inUnit(t.Quantity, t.UnitOfMeasure, String(p.UnitOfMeasureName)), 0)
}

function checkReceipt(o: ReceiptRow, err: (m: string) => void, ctx: WriteContext, earlier: ReceiptRow[]) {
  const type = REF.customerTypes.find((c) => same(c, o.SalesCustomerType))
  if (!type) err(`Sales Customer Type ${o.SalesCustomerType} is not valid; METRC takes ${REF.customerTypes.join(', ')}.`)
  if ((type === 'Patient' || type === 'ExternalPatient') && !o.PatientLicenseNumber) err(`A sale to a ${type} needs the PatientLicenseNumber.`)
  if (type === 'Caregiver' && !o.CaregiverLicenseNumber) err('A sale to a Caregiver needs the CaregiverLicenseNumber.')
  if (Date.parse(o.SalesDateTime) > Date.parse(ctx.now) + LATEST_ZONE_MS) err(`SalesDateTime ${o.SalesDateTime} is in the future.`)
  const done = new Set<string>()
  for (const t of o.Transactions) {
    const p = byLabel(ctx.f.packages, t.PackageLabel)
    if (!p || p.IsFinished || p.IsOnHold) {
      err(notActive(t.PackageLabel))
      continue
    }
    if (!unitName(t.UnitOfMeasure)) {
      err(`Unit of measure ${t.UnitOfMeasure} is not valid.`)
      continue
    }
    if (!sameUnitKind(t.UnitOfMeasure, p.UnitOfMeasureName)) {
      err(`Unit of measure ${t.UnitOfMeasure} does not match package ${String(p.Label)} (${String(p.UnitOfMeasureName)}).`)
      continue
    }
    if (done.has(String(p.Label))) continue
    done.add(String(p.Label))
    // every transaction of this package in this receipt and the receipts before it in the body
    if (taken([...earlier, o], p) > num(p.Quantity) + 1e-9) err(tooLittle(p))
  }
}

function applyReceipt(o: ReceiptRow, ctx: WriteContext): number {
  for (const t of o.Transactions) {
    const p = byLabel(ctx.f.packages, t.PackageLabel)!
    p.Quantity = round4(num(p.Quantity) - inUnit(t.Quantity, t.UnitOfMeasure, String(p.UnitOfMeasureName)))
    p.LastModified = ctx.now
  }
  const Id = newId(ctx)
  ctx.f.receipts.push({
    Id,
    ReceiptNumber: String(Id).padStart(10, '0'),
    ExternalReceiptNumber: o.ExternalReceiptNumber ?? null,
    SalesDateTime: o.SalesDateTime,
    SalesCustomerType: REF.customerTypes.find((c) => same(c, o.SalesCustomerType)),
    PatientLicenseNumber: o.PatientLicenseNumber ?? null,
    CaregiverLicenseNumber: o.CaregiverLicenseNumber ?? null,
    IdentificationMethod: o.IdentificationMethod ?? null,
    PatientRegistrationLocationId: o.PatientRegistrationLocationId ?? null,
    TotalPackages: new Set(o.Transactions.map((t) => t.PackageLabel.trim())).size,
    TotalPrice: round4(o.Transactions.reduce((n, t) => n + t.TotalAmount, 0)),
    Transactions: o.Transactions.map((t) => ({ ...t, PackageLabel: t.PackageLabel.trim(), UnitOfMeasure: unitName(t.UnitOfMeasure) })),
    IsFinal: false,
    ArchivedDate: null,
    RecordedDateTime: ctx.now,
    RecordedByUserName: null,
    LastModified: ctx.now,
  })
  return Id
}

/** A receipt as METRC lists it (its GetActiveReceipts example) */
const RECEIPT_FIELDS = ['Id', 'ReceiptNumber', 'ExternalReceiptNumber', 'SalesDateTime', 'SalesCustomerType', 'PatientLicenseNumber', 'CaregiverLicenseNumber', 'IdentificationMethod', 'PatientRegistrationLocationId', 'TotalPackages', 'TotalPrice', 'Transactions', 'IsFinal', 'ArchivedDate', 'RecordedDateTime', 'RecordedByUserName', 'LastModified']
export const receiptWire = (r: Row) => Object.fromEntries(RECEIPT_FIELDS.map((k) => [k, r[k] ?? null]))

export const sales: Family = {
  lists: {
    '/sales/v2/customertypes': { license: 'none', shape: 'bare', rows: () => REF.customerTypes },
    '/patients/v2/active': { license: 'required', shape: 'paged', wire: patientWire, rows: (_s, f) => f!.patients },
    '/sales/v2/receipts/active': { license: 'required', shape: 'paged', modified: true, wire: receiptWire, rows: (_s, f) => f!.receipts.filter((r) => !r.ArchivedDate) },
  },
  byId: { patients: { rows: (f) => f.patients, wire: patientWire } },
  writes: {
    'POST /sales/v2/receipts': write({
      schema: Receipt,
      // a facility whose type does not sell (METRC's "Facility Type/Consumer Sales or Patient Sales …")
      gate: (l) => {
        if (l.CanGrowPlants) throw new Refusal(403, `License ${l.Number} (${l.LicenseType}) does not record sales.`)
      },
      check: checkReceipt,
      apply: applyReceipt,
    }),
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
