/**
 * The distribution area's METRC mapping (issue 24 item 2), as METRC publishes it
 * (shared/reference/metrc-real, decision 030): a shipped order to a licensed client is an outgoing
 * transfer template (`POST /transfers/v2/templates/outgoing`: Name, the transporter and driver
 * fields, Destinations[{RecipientLicenseNumber, InvoiceNumber, TransferTypeName, PlannedRoute,
 * EstimatedDepartureDateTime, EstimatedArrivalDateTime, Transporters[], Packages[{PackageLabel,
 * WholesalePrice, GrossWeight, GrossUnitOfWeightName}]}]); a retail sale to an unlicensed buyer is
 * a sales receipt (`POST /sales/v2/receipts`: SalesDateTime, ExternalReceiptNumber,
 * SalesCustomerType, Transactions[{PackageLabel, Quantity, UnitOfMeasure, TotalAmount, …}]).
 */
import type { Doc } from '../../db/types'
import type { PushItem } from '../../metrc/outbox/enqueue.server'
import { dollars } from './money'
import type { CartLine } from './cart.server'
import type { AssignedPackage, Facility } from './orders.server'

export const TRANSFER_ENDPOINT = 'POST /transfers/v2/templates/outgoing'
export const RECEIPT_ENDPOINT = 'POST /sales/v2/receipts'
const UNITS: Record<string, string> = { g: 'Grams', kg: 'Kilograms', oz: 'Ounces', lb: 'Pounds', units: 'Each', ml: 'Milliliters', l: 'Liters' }
/** units a gross weight may be given in (a count of units has no weight here) */
const WEIGHTS = new Set(['g', 'kg', 'oz', 'lb'])
/**
 * A time as METRC takes it: the facility's own wall-clock time without a zone (METRC's RecordReceipts:
 * "SalesDateTime … must already be in the same time zone as the Facility … and not in UTC"; the
 * template's estimated times likewise), `2026-12-06T09:15:00.000`.
 */
export function metrcTime(d: Date, timeZone = 'UTC'): string {
  let parts: Record<string, string>
  try {
    parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(d).map((p) => [p.type, p.value]))
  } catch {
    return d.toISOString().slice(0, 23)
  }
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`
}
const s = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)

export interface ShipFacts {
  fac: Facility
  /** the license the facility is linked to METRC with (metrc_links): METRC knows the shipper by it */
  metrcLicense?: string | null
  order: Doc
  client: Doc
  invoiceNo: string
  manifestNo: string
  vehicle: Record<string, unknown>
  shipAt: Date
}

/** The line price of a package line in dollars (what METRC's WholesalePrice and TotalAmount carry). */
function linePrice(order: Doc, p: AssignedPackage): number {
  const l = ((order.items as CartLine[]) ?? []).find((x) => x.id === p.line)
  return dollars(l?.totalCents ?? 0)
}

/**
 * A template's packages: each package once (METRC refuses a package listed twice), two lines picked
 * from one package as one entry with their prices (and weights) added.
 */
function templatePackages(order: Doc, pk: AssignedPackage[]) {
  const out = new Map<string, { PackageLabel: string; WholesalePrice: number; GrossWeight: number | null; GrossUnitOfWeightName: string | null; milli: number }>()
  for (const p of pk) {
    const was = out.get(p.tag)
    const milli = (was?.milli ?? 0) + p.qtyMilli
    const price = Math.round(((was?.WholesalePrice ?? 0) + linePrice(order, p)) * 100) / 100
    const weighed = WEIGHTS.has(p.unit)
    out.set(p.tag, { PackageLabel: p.tag, WholesalePrice: price, GrossWeight: weighed ? milli / 1000 : null, GrossUnitOfWeightName: weighed ? UNITS[p.unit] : null, milli })
  }
  return [...out.values()].map(({ milli: _m, ...row }) => row)
}

export function metrcPushesFor(f: ShipFacts): PushItem[] {
  const pk = (Array.isArray(f.order.packages) ? f.order.packages : []) as AssignedPackage[]
  const license = s(f.client.license)
  const label = `${String(f.order.orderNo)} to ${String(f.client.name)}`
  const source = { collection: 'dis_orders', id: f.order._id }
  const at = (d: Date) => metrcTime(d, f.fac.timeZone)
  if (!license) {
    return [{
      endpoint: RECEIPT_ENDPOINT,
      label: `Sales receipt ${label}`,
      source,
      payload: {
        SalesDateTime: at(f.shipAt),
        ExternalReceiptNumber: f.invoiceNo,
        SalesCustomerType: 'Consumer',
        PatientLicenseNumber: null,
        CaregiverLicenseNumber: null,
        IdentificationMethod: null,
        PatientRegistrationLocationId: null,
        Transactions: pk.map((p) => ({ PackageLabel: p.tag, Quantity: p.qtyMilli / 1000, UnitOfMeasure: UNITS[p.unit] ?? 'Each', TotalAmount: linePrice(f.order, p), InvoiceNumber: f.invoiceNo })),
      },
    }]
  }
  const v = f.vehicle
  const [make, ...model] = String(v.make_model ?? '').split(' ')
  const arrive = new Date(f.shipAt.getTime() + 4 * 3_600_000)
  const driver = {
    TransporterFacilityLicenseNumber: f.metrcLicense || f.fac.license || null,
    DriverOccupationalLicenseNumber: s(v.driver_license),
    DriverName: s(v.driver),
    DriverLicenseNumber: s(v.driver_license),
    PhoneNumberForQuestions: s(v.driver_phone),
    VehicleMake: s(make),
    VehicleModel: s(model.join(' ')),
    VehicleLicensePlateNumber: s(v.plate),
  }
  return [{
    endpoint: TRANSFER_ENDPOINT,
    label: `Transfer ${label} (${pk.length} package${pk.length === 1 ? '' : 's'})`,
    source,
    problem: pk.length ? undefined : 'The order has no packages: fulfil it before it ships.',
    payload: {
      Name: f.manifestNo,
      ...driver,
      Destinations: [{
        RecipientLicenseNumber: license,
        InvoiceNumber: f.invoiceNo,
        TransferTypeName: 'Wholesale',
        PlannedRoute: `${f.fac.name} to ${String(f.client.address ?? '')} ${String(f.client.city ?? '')}, ${String(f.client.state ?? '')}`.trim(),
        EstimatedDepartureDateTime: at(f.shipAt),
        EstimatedArrivalDateTime: at(arrive),
        Transporters: driver.DriverName
          ? [{ ...driver, DriverLayoverLeg: null, IsLayover: false, EstimatedDepartureDateTime: at(f.shipAt), EstimatedArrivalDateTime: at(arrive), TransporterDetails: [] }]
          : [],
        Packages: templatePackages(f.order, pk),
      }],
    },
  }]
}
