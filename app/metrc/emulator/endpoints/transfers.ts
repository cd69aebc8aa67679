/**
 * Transfers (→ MetrcTransfers types, MetrcXferStates): incoming and outgoing lists (one row per
 * delivery, lastModified windows), a delivery's packages, transfer types, package states; and the
 * outgoing transfer templates a shipper makes (issue 24): `POST /transfers/v2/templates/outgoing`
 * (METRC's CreateTemplates body: Name, transporter and driver, Destinations with a recipient
 * license, a transfer type, a planned route, estimated times, Transporters and Packages, each an
 * active package of this facility, not on hold), their list and a template's deliveries. A template
 * moves nothing: the packages stay where they are until a transfer is made from it.
 */
import { z } from 'zod'
import type { EmulatorState, FacilityData, Row, UserKey } from '../model'
import { REF } from '../reference'
import { unitKind } from '../rules'
import { byLabel, same, write, zBool, zDate, zNumber, zOpt, zText, type Family, type WriteContext } from './kit'
import { notActive } from './packages'

const wire = ({ Direction: _d, Packages: _p, ...row }: Record<string, unknown>) => row

/** METRC's license numbers: letters and digits in dash-separated parts ("403R-00512", "C11-0000001-LIC", "123-XYZ") */
export const LICENSE_RE = /^[0-9A-Z]+(?:-[0-9A-Z]+){1,3}$/i

const TemplatePackage = z
  .object({
    PackageLabel: zText,
    WholesalePrice: z.number({ invalid_type_error: 'must be a number' }).min(0, 'must not be negative').nullish(),
    GrossWeight: zNumber.positive('must be more than 0').nullish(),
    GrossUnitOfWeightName: zOpt,
  })
  .passthrough()
const Transporter = z
  .object({
    TransporterFacilityLicenseNumber: zOpt,
    DriverOccupationalLicenseNumber: zOpt,
    DriverName: zOpt,
    DriverLicenseNumber: zOpt,
    DriverLayoverLeg: zOpt,
    PhoneNumberForQuestions: zOpt,
    VehicleMake: zOpt,
    VehicleModel: zOpt,
    VehicleLicensePlateNumber: zOpt,
    IsLayover: zBool,
    EstimatedDepartureDateTime: zDate.nullish(),
    EstimatedArrivalDateTime: zDate.nullish(),
    TransporterDetails: z.array(z.object({}).passthrough()).nullish(),
  })
  .passthrough()
const Destination = z
  .object({
    RecipientLicenseNumber: zText,
    InvoiceNumber: zOpt,
    TransferTypeName: zText,
    PlannedRoute: zText,
    EstimatedDepartureDateTime: zDate,
    EstimatedArrivalDateTime: zDate,
    Transporters: z.array(Transporter).nullish(),
    Packages: z.array(TemplatePackage).min(1, 'must name at least one package'),
  })
  .passthrough()
const Template = z
  .object({
    Name: zText,
    TransporterFacilityLicenseNumber: zOpt,
    DriverOccupationalLicenseNumber: zOpt,
    DriverName: zOpt,
    DriverLicenseNumber: zOpt,
    PhoneNumberForQuestions: zOpt,
    VehicleMake: zOpt,
    VehicleModel: zOpt,
    VehicleLicensePlateNumber: zOpt,
    Destinations: z.array(Destination).min(1, 'must have at least one destination'),
  })
  .passthrough()
type TemplateRow = z.infer<typeof Template>

function checkTemplate(o: TemplateRow, err: (m: string) => void, ctx: WriteContext) {
  if (o.TransporterFacilityLicenseNumber && !LICENSE_RE.test(o.TransporterFacilityLicenseNumber)) err(`Transporter Facility License Number ${o.TransporterFacilityLicenseNumber} is not valid.`)
  const seen = new Set<string>()
  for (const d of o.Destinations) {
    const recipient = d.RecipientLicenseNumber
    if (same(recipient, ctx.license.Number)) err(`Recipient Facility License Number ${recipient} is the shipping Facility's own license.`)
    else if (!ctx.state.licenses.some((l) => same(l.Number, recipient)) && !LICENSE_RE.test(recipient)) err(`Recipient Facility License Number ${recipient} is not valid.`)
    const type = REF.transferTypes.find((t) => same(t.Name, d.TransferTypeName))
    if (!type || !type.ForLicensedShipments) err(`Transfer Type ${d.TransferTypeName} is not valid.`)
    if (Date.parse(d.EstimatedArrivalDateTime) < Date.parse(d.EstimatedDepartureDateTime)) err('EstimatedArrivalDateTime is before EstimatedDepartureDateTime.')
    for (const t of d.Transporters ?? []) if (t.TransporterFacilityLicenseNumber && !LICENSE_RE.test(t.TransporterFacilityLicenseNumber)) err(`Transporter Facility License Number ${t.TransporterFacilityLicenseNumber} is not valid.`)
    for (const p of d.Packages) {
      const pkg = byLabel(ctx.f.packages, p.PackageLabel)
      if (!pkg || pkg.IsFinished || pkg.IsOnHold) err(notActive(p.PackageLabel))
      else if (seen.has(String(pkg.Label))) err(`Package ${p.PackageLabel} is on the template more than once.`)
      seen.add(String(pkg?.Label ?? p.PackageLabel))
      if (type?.RequiresPackagesGrossWeight && p.GrossWeight == null) err(`Package ${p.PackageLabel}: GrossWeight is required for a ${type.Name} transfer.`)
      if (p.GrossWeight != null && unitKind(p.GrossUnitOfWeightName) !== 'WeightBased') err(`Package ${p.PackageLabel}: gross unit of weight ${String(p.GrossUnitOfWeightName ?? '')} is not a unit of weight.`)
    }
  }
}

function applyTemplate(o: TemplateRow, ctx: WriteContext): number {
  const Id = ctx.state.nextId++
  const destinations = o.Destinations.map((d) => {
    const recipient = ctx.state.licenses.find((l) => same(l.Number, d.RecipientLicenseNumber))
    return { ...d, Id: ctx.state.nextId++, RecipientLicenseNumber: recipient?.Number ?? d.RecipientLicenseNumber.trim(), RecipientFacilityName: recipient?.Name ?? null, Transporters: d.Transporters ?? [] }
  })
  ctx.f.transferTemplates.push({
    Id,
    Name: o.Name,
    ShipperFacilityLicenseNumber: ctx.license.Number,
    ShipperFacilityName: ctx.license.Name,
    TransporterFacilityLicenseNumber: o.TransporterFacilityLicenseNumber ?? null,
    DriverName: o.DriverName ?? null,
    DriverOccupationalLicenseNumber: o.DriverOccupationalLicenseNumber ?? null,
    DriverLicenseNumber: o.DriverLicenseNumber ?? null,
    PhoneNumberForQuestions: o.PhoneNumberForQuestions ?? null,
    VehicleMake: o.VehicleMake ?? null,
    VehicleModel: o.VehicleModel ?? null,
    VehicleLicensePlateNumber: o.VehicleLicensePlateNumber ?? null,
    Destinations: destinations,
    IsVoided: false,
    CreatedDateTime: ctx.now,
    LastModified: ctx.now,
  })
  return Id
}

/** A template as METRC lists it (its GetTemplates example: the first delivery's figures beside the template's) */
export function templateWire(t: Row, f: FacilityData | null) {
  const ds = (t.Destinations as Array<Record<string, unknown>>) ?? []
  const d = ds[0] ?? {}
  const packages = ds.flatMap((x) => (x.Packages as Array<Record<string, unknown>>) ?? [])
  const pkgs = packages.map((p) => (f ? byLabel(f.packages, p.PackageLabel) : undefined))
  const transporter = s(t.TransporterFacilityLicenseNumber)
  return {
    Id: t.Id,
    ManifestNumber: null,
    InvoiceNumber: d.InvoiceNumber ?? null,
    ShipmentLicenseType: 0,
    ShipperFacilityLicenseNumber: t.ShipperFacilityLicenseNumber,
    ShipperFacilityName: t.ShipperFacilityName,
    Name: t.Name,
    TransporterFacilityLicenseNumber: transporter,
    TransporterFacilityName: transporter === t.ShipperFacilityLicenseNumber ? t.ShipperFacilityName : null,
    DriverName: t.DriverName ?? null,
    DriverOccupationalLicenseNumber: t.DriverOccupationalLicenseNumber ?? '',
    DriverVehicleLicenseNumber: t.DriverLicenseNumber ?? '',
    VehicleMake: t.VehicleMake ?? null,
    VehicleModel: t.VehicleModel ?? null,
    VehicleLicensePlateNumber: t.VehicleLicensePlateNumber ?? null,
    DeliveryCount: ds.length,
    ReceivedDeliveryCount: 0,
    PackageCount: packages.length,
    ReceivedPackageCount: 0,
    ContainsPlantPackage: pkgs.some((p) => p && p.PackageType !== 'Product'),
    ContainsProductPackage: pkgs.some((p) => p?.PackageType === 'Product'),
    ContainsTradeSample: false,
    ContainsDonation: pkgs.some((p) => p?.IsDonation === true),
    ContainsTestingSample: pkgs.some((p) => p?.IsTestingSample === true),
    ContainsProductRequiresRemediation: false,
    ContainsRemediatedProductPackage: false,
    IsVoided: t.IsVoided ?? false,
    CreatedDateTime: t.CreatedDateTime,
    CreatedByUserName: null,
    LastModified: t.LastModified,
    DeliveryId: d.Id ?? 0,
    RecipientFacilityLicenseNumber: d.RecipientLicenseNumber ?? null,
    RecipientFacilityName: d.RecipientFacilityName ?? null,
    ShipmentTypeName: d.TransferTypeName ?? null,
    ShipmentTransactionType: null,
    EstimatedDepartureDateTime: d.EstimatedDepartureDateTime ?? null,
    ActualDepartureDateTime: null,
    EstimatedArrivalDateTime: d.EstimatedArrivalDateTime ?? null,
    ActualArrivalDateTime: null,
    DeliveryPackageCount: ((d.Packages as unknown[]) ?? []).length,
    DeliveryReceivedPackageCount: 0,
    ReceivedDateTime: null,
    EstimatedReturnDepartureDateTime: null,
    ActualReturnDepartureDateTime: null,
    EstimatedReturnArrivalDateTime: null,
    ActualReturnArrivalDateTime: null,
    OriginatingTemplateId: null,
  }
}
const s = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)

/** A template's destination as METRC lists it (its GetTemplateDeliveries example) */
function deliveryWire(d: Record<string, unknown>) {
  return {
    Id: d.Id,
    ManifestNumber: null,
    DeliveryNumber: 0,
    RecipientFacilityLicenseNumber: d.RecipientLicenseNumber,
    RecipientFacilityName: d.RecipientFacilityName ?? null,
    ShipmentTypeName: d.TransferTypeName,
    ShipmentTransactionType: 'Standard',
    InvoiceNumber: d.InvoiceNumber ?? null,
    EstimatedDepartureDateTime: d.EstimatedDepartureDateTime,
    ActualDepartureDateTime: null,
    EstimatedArrivalDateTime: d.EstimatedArrivalDateTime,
    ActualArrivalDateTime: null,
    GrossWeight: null,
    GrossUnitOfWeightId: null,
    GrossUnitOfWeightName: null,
    PlannedRoute: d.PlannedRoute,
    DeliveryPackageCount: ((d.Packages as unknown[]) ?? []).length,
    DeliveryReceivedPackageCount: 0,
    ReceivedDateTime: null,
    EstimatedReturnDepartureDateTime: null,
    ActualReturnDepartureDateTime: null,
    EstimatedReturnArrivalDateTime: null,
    ActualReturnArrivalDateTime: null,
    RejectedPackagesReturned: false,
    PDFDocumentFileSystemId: null,
  }
}

export const transfers: Family = {
  lists: {
    '/transfers/v2/incoming': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.transfers.filter((t) => t.Direction === 'incoming').map(wire) },
    '/transfers/v2/outgoing': { license: 'required', shape: 'paged', modified: true, rows: (_s, f) => f!.transfers.filter((t) => t.Direction === 'outgoing').map(wire) },
    '/transfers/v2/types': { license: 'required', shape: 'paged', rows: () => REF.transferTypes },
    '/transfers/v2/deliveries/packages/states': { license: 'none', shape: 'bare', rows: () => REF.transferPackageStates },
    '/transfers/v2/templates/outgoing': { license: 'required', shape: 'paged', modified: true, wire: (t: never, f) => templateWire(t, f), rows: (_s, f) => f!.transferTemplates.filter((t) => !t.IsVoided) },
  },
  writes: {
    'POST /transfers/v2/templates/outgoing': write({ schema: Template, check: (o, err, ctx) => checkTemplate(o, err, ctx), apply: applyTemplate }),
  },
}

/**
 * Reads keyed by a delivery's or a template's id rather than a license (no licenseNumber): only the
 * caller's own; another's is 401. `template` is the endpoint METRC's tables name (its permissions).
 */
export const KEYED_READS: Array<{ re: RegExp; template: string; rows: (s: EmulatorState, user: UserKey, id: number) => unknown[] | null }> = [
  { re: /^\/transfers\/v2\/deliveries\/(\d+)\/packages$/, template: 'GET /transfers/v2/deliveries/{id}/packages', rows: deliveryPackages },
  { re: /^\/transfers\/v2\/templates\/outgoing\/(\d+)\/deliveries$/, template: 'GET /transfers/v2/templates/outgoing/{id}/deliveries', rows: templateDeliveries },
]

/** A delivery's packages, when the delivery belongs to one of the caller's licenses; else null (401). */
export function deliveryPackages(s: EmulatorState, user: UserKey, deliveryId: number): unknown[] | null {
  for (const lic of user.licenses) {
    const t = s.facilities[lic]?.transfers.find((x) => x.DeliveryId === deliveryId)
    if (t) return (t.Packages as unknown[]) ?? []
  }
  return null
}

/** A template's deliveries (one per destination), when the template is one of the caller's licenses'; else null (401). */
export function templateDeliveries(s: EmulatorState, user: UserKey, templateId: number): unknown[] | null {
  for (const lic of user.licenses) {
    const t = s.facilities[lic]?.transferTemplates.find((x) => x.Id === templateId)
    if (t) return ((t.Destinations as Array<Record<string, unknown>>) ?? []).map(deliveryWire)
  }
  return null
}
