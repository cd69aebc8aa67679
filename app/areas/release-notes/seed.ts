/**
 * The demo's release notes (issue 27 item 5): the console's own changelog, once, under the platform
 * organisation (every facility reads the same list). The newest one is still a draft: a super user
 * publishes it and everyone then sees "What's new" once. Text is Markdown.
 */
import type { SeedCtx, SeedRecords } from '../../seed/kit'
import { NOTES } from './rules'

const NOTES_DATA: Array<[string, string, string, string, string]> = [
  ['3.6.0', 'Harvest batches in the Metrc sync', 'Feature', 'Metrc', 'Harvest batches created in Canopy are pushed to METRC with wet weight and drying room.'],
  ['3.6.1', 'Label reprint from inventory', 'Improvement', 'Cultivation', 'Reprint a package label from the inventory row without opening the package.'],
  ['3.7.0', 'Scale integration for waste', 'Feature', 'Cultivation', 'Waste weights can be read from a networked scale (lb, oz or g).'],
  ['3.7.2', 'Order totals rounding', 'Fix', 'Distribution', 'Order totals with excise tax now round to the cent per line, matching invoices.'],
  ['3.8.0', 'Visitor log badges', 'Feature', 'Other', 'Visitor badges print on the front desk Zebra printer; sign-out closes the badge.'],
  ['3.8.1', 'Plant tag RFID scanning', 'Improvement', 'Cultivation', 'Scanning an RFID plant tag opens the plant record in kiosk mode.'],
  ['3.9.0', 'Sales pipeline board', 'Feature', 'CRM', 'Deals can be tracked by stage with amount, probability and expected close.'],
  ['3.9.3', 'Receivables aging buckets', 'Improvement', 'Finance', 'Receivables now show **0-30**, **31-60** and **61+** day aging.'],
  ['4.0.0', 'New table engine', 'Feature', 'Settings', 'Faster tables:\n\n- column search\n- date range filters\n- saved page size'],
  ['4.0.1', 'Date filter time zone', 'Fix', 'Settings', 'Date range shortcuts use the facility time zone instead of UTC.'],
  ['4.0.2', 'Transfer manifest fields', 'Compliance', 'Metrc', 'Manifests include driver license number and vehicle plate as required by the state.'],
  ['4.0.3', 'Dark theme contrast', 'Improvement', 'Settings', 'Higher contrast status dots and check cells in the dark theme.'],
  ['4.1.0', 'Sensors dashboard', 'Feature', 'Dashboards', 'Room temperature, humidity and VPD gauges with warning thresholds, on the **Sensors** dashboard.'],
  ['4.1.0', 'Idle logout notice', 'Improvement', 'Settings', 'Users see why they were logged out after an hour of inactivity.'],
]

export function seedReleaseNotes(ctx: SeedCtx): SeedRecords {
  const day = 86_400_000
  return {
    [NOTES]: NOTES_DATA.map(([version, title, category, module, notes], i) => ({
      _id: ctx.id(NOTES, i),
      version,
      title,
      category,
      module,
      notes,
      released: new Date(ctx.now.getTime() - (20 + (NOTES_DATA.length - 1 - i) * 38) * day).toISOString(),
      // the newest is a draft until a super user publishes it
      published: i === NOTES_DATA.length - 1 ? 'no' : 'yes',
    })),
  }
}
