/**
 * Demo schemas of the "operations" seed group: cultivation (fac_*), tasks (sch_tasks),
 * sensors (sen_*), distribution (dis_*), testing (tes_inventory) and finance (tax_*, fin_*).
 * Shape A of SPEC §3. The pick lists are exported so the record seed uses the same values.
 */
import type { MeasureUnit } from '../../schemas/table-schema'

type Unit = MeasureUnit
type Item = Record<string, unknown> & { key: string; label: string }
type X = Partial<Item>

// ---- pick lists (shared with records/operations*.ts) ----
export const GROWTH_PHASES = ['Clone', 'Vegetative', 'Flowering', 'Mother', 'Harvested', 'Destroyed'] as const
export const WASTE_METHODS = ['Grinder', 'Compost', 'Incinerator', 'Landfill (mixed)', 'Hauler Pickup'] as const
export const MIX_MATERIALS = ['Soil', 'Food Waste', 'Cat Litter', 'Sawdust', 'Paper Waste', 'Yard Waste'] as const
export const WASTE_TYPES = ['Plant Material', 'Harvest Waste', 'Trim Waste', 'Root Balls', 'Stems', 'Failed Product', 'Expired Product'] as const
export const WASTE_REASONS = ['Male plant', 'Mold / mildew', 'Pest infestation', 'Failed lab test', 'Damaged', 'Routine trim', 'Root rot', 'Hermaphrodite'] as const
export const PLANTING_TYPES = ['Seed', 'Clone'] as const
/** METRC's plant waste reasons (its reference list; a destroy sends one as WasteReasonName) */
export const METRC_WASTE_REASONS = ['Contamination', 'Male Plants', 'Disease/Infestation', 'Trimming/Pruning', 'Plant not growing', 'Trim'] as const
export const CLONE_STAGES = ['Cut', 'Rooting', 'Rooted', 'Transplanted', 'Culled'] as const
export const HEALTH = ['Excellent', 'Good', 'Fair', 'Poor'] as const
export const HARVEST_STATUS = ['Drying', 'Curing', 'Trimming', 'Packaged', 'Finished'] as const
export const PROCESS_TYPES = ['Bucking', 'Machine Trim', 'Hand Trim', 'BHO Extraction', 'Rosin Press', 'CO2 Extraction', 'Pre-Roll Production', 'Packaging'] as const
export const PROCESS_STATUS = ['Queued', 'In Progress', 'Complete', 'On Hold'] as const
export const TRIM_METHODS = ['Hand', 'Twister T4', 'CenturionPro Gen2', 'GreenBroz M'] as const
export const INV_CATEGORIES = ['Buds', 'Smalls', 'Shake/Trim', 'Pre-Roll', 'Clones', 'Seeds', 'Concentrate', 'Vape Cartridge', 'Edible', 'Tincture', 'Topical'] as const
export const INV_STATUS = ['Active', 'On Hold', 'Quarantine', 'Lab Pending', 'Released'] as const
export const LAB_STATUS = ['Not Submitted', 'Submitted', 'Test Passed', 'Test Failed', 'Retest'] as const
export const BIN_TYPES = ['Tote', 'Shelf', 'Vault Shelf', 'Drying Rack', 'Cage', 'Freezer'] as const
export const UOMS = ['Each', 'Grams', 'Ounces', 'Pounds', 'Milliliters'] as const
export const REPORT_TYPES = ['Compliance', 'Inventory', 'Yield', 'Waste', 'Sales', 'Tax', 'Payments', 'Lab'] as const
export const TASK_STATUS = ['Scheduled', 'In Progress', 'Done', 'Cancelled'] as const
export const PRIORITIES = ['Low', 'Normal', 'High', 'Urgent'] as const
export const TASK_CATEGORIES = ['Feeding', 'IPM', 'Transplant', 'Defoliation', 'Harvest', 'Cleaning', 'Maintenance', 'Inventory Audit', 'Delivery', 'Compliance', 'Training'] as const
export const DEVICE_TYPES = ['sensor', 'scale', 'rfid', 'printer'] as const
export const SCANNER_TYPES = ['rfid', 'scale'] as const
export const DEVICE_ARGS = ['user', 'other'] as const
/** an order's statuses (issue 24: app/areas/distribution/rules.ts ORDER_STATUSES, the same list) */
export const ORDER_STATUS = ['Draft', 'Confirmed', 'Picking', 'Shipped', 'Delivered', 'Cancelled'] as const
export const PAY_TERMS = ['COD', 'Net 7', 'Net 15', 'Net 30'] as const
export const SAMPLE_TYPES = ['Flower', 'Pre-Roll', 'Concentrate', 'Vape Cartridge', 'Edible', 'Tincture', 'Topical'] as const
export const TEST_STATUS = ['Received', 'In Progress', 'Passed', 'Failed', 'Retest Requested'] as const
export const LABS = ['Clearwater Analytical Labs', 'SC Labs', 'Steep Hill', 'CannaSafe', 'Anresco Laboratories', 'EVIO Labs', 'Digipath Labs'] as const
export const PAY_METHODS = ['ACH', 'Cash', 'Check', 'Wire', 'CanPay', 'Money Order'] as const
export const TAX_STATES = ['t', 'd', 'p'] as const
export const TAX_KINDS = ['Cultivation Tax', 'Excise Tax', 'Sales Tax', 'Local Cannabis Tax'] as const

const WEIGHT: Unit[] = ['g', 'kg', 'oz', 'lb']
const SCALE: Unit[] = ['g', 'oz', 'lb']
const ANY: Unit[] = ['g', 'kg', 'oz', 'lb', 'units', 'packages', 'ml', 'l', 'fl oz', 'gal']

/**
 * Facility staff (text names, matching the business group's staff and demo users), plus the trim crew.
 * set_contacts are people at client businesses, so internal roles are not references.
 */
export const STAFF = {
  cultivation: ['Alex Morgan', 'Maria Lopez', 'Jordan Lee', 'Sam Rivera', 'Dana Whitfield', 'Hector Salazar', 'Brooke Tanaka', 'Miguel Herrera'],
  distribution: ['Alex Morgan', 'Chris Patel', 'Jordan Lee', 'Renee Carter', 'Tomas Novak', 'Gabriela Ruiz', 'Isaac Bloom', 'Whitney Moore'],
} as const
export const TRIM_CREW = ['Rosa Delgado', 'Tyler Brooks', 'Keisha Ward', 'Luis Ortiz', 'Hannah Chen', 'Omar Shah', 'Dustin Holt'] as const

// ---- item helpers ----
/** The items of one section of the edit form (issue 33 item 3). */
const grouped = (group: string, items: Item[]): Item[] => items.map((it) => ({ ...it, group }))
const txt = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'text', ...x })
const num = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'number', ...x })
const date = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'date', format: 'date', ...x })
const money = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'currency', format: 'currency', ...x })
const meas = (key: string, label: string, units: Unit[], x: X = {}): Item => ({ key, label, type: 'measure', format: 'measure', units, ...x })
const list = (key: string, label: string, values: readonly string[], x: X = {}): Item => ({ key, label, type: 'list', en: { list: [...values] }, ...x })
const ref = (key: string, label: string, table: string, x: X = {}, labelField = 'name'): Item => ({
  key, label, type: 'list', format: `id:${table}:${labelField}`, en: { table, labelField }, ...x,
})
const check = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'check', format: 'check', ...x })
const trim = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'textarea', format: 'trim', ...x })
const status = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'status', format: 'status', en: { list: ['yes', 'no'] }, ...x })
const tax = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'list', format: 'tax', en: { list: [...TAX_STATES] }, ...x })
const qr = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'text', format: 'qrcode', ...x })
const image = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'fileDND', format: 'image', ...x })
const pdf = (key: string, label: string, x: X = {}): Item => ({ key, label, type: 'fileDND', format: 'pdf', ...x })
const F = { filter: true } as const
const S = { sortable: true } as const
const FS = { filter: true, sortable: true } as const
const RQ = { required: true } as const
const HIDE = { show: 'no' } as const

/** Line items of an order or a cart (array sub-table; sub-row ids are digits 0-9). */
const lineItems: Item[] = [
  txt('id', 'Line', { ...HIDE, ro: 'yes' }),
  ref('product', 'Product', 'dis_products'),
  qr('tag', 'Package Tag'),
  num('qty', 'Qty', { min: 1 }),
  money('price', 'Unit Price'),
  money('total', 'Line Total', { ro: 'yes' }),
]

export const schemas = [
  // ----------------------------------------------------------------- Cultivation
  {
    key: 'fac_products', label: 'Products', dateField: 'launched', statusField: 'active', defaultSort: { key: 'name', dir: 'asc' },
    items: [
      txt('name', 'Product', { ...FS, ...RQ }), txt('sku', 'SKU', F), ref('prodtype', 'Product Type', 'set_prodtypes', S),
      ref('strain', 'Strain', 'set_strains', S), list('category', 'Category', INV_CATEGORIES), list('uom', 'Unit of Measure', UOMS),
      meas('unitWeight', 'Unit Size', ['g', 'oz', 'lb', 'units']), money('price', 'Wholesale Price', S), money('msrp', 'MSRP'),
      num('thc', 'THC %', { min: 0, max: 100 }), num('cbd', 'CBD %', { min: 0, max: 100 }), image('image', 'Image'),
      trim('description', 'Description'), date('launched', 'Launched', S), status('active', 'Active'),
    ],
  },
  {
    key: 'fac_inventory', label: 'Inventory', dateField: 'packaged', statusField: 'onHand', defaultSort: { key: 'packaged', dir: 'desc' },
    items: [
      qr('tag', 'Package Tag', { ...FS, ...RQ, scanner: 'rfid' }), ref('product', 'Product', 'fac_products', S), ref('strain', 'Strain', 'set_strains'),
      list('category', 'Category', INV_CATEGORIES, F), meas('qty', 'Quantity', ANY, { ...S, scanner: 'scale' }), ref('room', 'Room', 'set_rooms'),
      ref('bin', 'Bin', 'fac_bins'), ref('harvest', 'Source Harvest', 'fac_harvests'), list('status', 'Status', INV_STATUS, S),
      list('labStatus', 'Lab Status', LAB_STATUS), money('unitCost', 'Unit Cost'), date('packaged', 'Packaged', S),
      status('onHand', 'On Hand', HIDE), trim('note', 'Note'),
    ],
  },
  {
    key: 'fac_bins', label: 'Bins', dateField: 'lastAudit', statusField: 'active', defaultSort: { key: 'name', dir: 'asc' },
    items: [
      txt('name', 'Bin', { ...FS, ...RQ }), qr('barcode', 'Barcode', F), ref('room', 'Room', 'set_rooms', S), list('binType', 'Type', BIN_TYPES),
      meas('capacity', 'Capacity', WEIGHT), meas('contents', 'Current Contents', WEIGHT, { ...S, scanner: 'scale' }),
      num('packages', 'Packages'), date('lastAudit', 'Last Audit', S), status('active', 'Active'), trim('note', 'Note'),
    ],
  },
  {
    key: 'fac_moms', label: 'Mothers', dateField: 'planted', statusField: 'active', defaultSort: { key: 'name', dir: 'asc' },
    items: [
      txt('name', 'Mother', { ...FS, ...RQ }), txt('tag', 'Plant Tag', { ...FS, scanner: 'rfid' }), ref('strain', 'Strain', 'set_strains', { ...S, ...RQ }),
      ref('room', 'Room', 'set_rooms', RQ), date('planted', 'Planted', S), date('lastCut', 'Last Cuttings', S), num('clonesTaken', 'Clones Taken'),
      list('health', 'Health', HEALTH, F), list('medium', 'Medium', ['Coco', 'Rockwool', 'Living Soil', 'Peat Mix']), status('active', 'Active'),
      trim('notes', 'Notes'),
    ],
    // row actions (decision 038), done by app/areas/cultivation
    actions: [{ key: 'clone', label: 'Take clones', min: 1, max: 1 }],
  },
  {
    key: 'fac_clones', label: 'Clones', dateField: 'cutDate', defaultSort: { key: 'cutDate', dir: 'desc' },
    items: [
      txt('name', 'Clone Batch', { ...FS, ...RQ }), ref('strain', 'Strain', 'set_strains', { ...S, ...RQ }), ref('mother', 'Mother', 'fac_moms'),
      ref('room', 'Room', 'set_rooms'), date('cutDate', 'Cut Date', S), num('count', 'Cuttings', { min: 1 }), num('rooted', 'Rooted'),
      list('stage', 'Stage', CLONE_STAGES, FS), txt('tray', 'Tray / Dome'), ref('planting', 'Planting', 'fac_plantings'),
      check('hormone', 'Rooting Hormone'), trim('notes', 'Notes'),
    ],
  },
  {
    key: 'fac_plantings', label: 'Plantings', singular: 'planting', dateField: 'planted', defaultSort: { key: 'planted', dir: 'desc' },
    items: [
      // Strain, Room, Tag Number, Source Pkg and Original Count are checked by the plantings save rules
      // (app/forms/save-rules.ts), with the SPEC §5 messages, rather than as required fields
      txt('name', 'Batch', { ...FS, ...RQ }), ref('strain', 'Strain', 'set_strains', S), ref('room', 'Room', 'set_rooms', S),
      qr('mtag', 'Tag Number', { ...F, scanner: 'rfid' }), qr('origin', 'Source Pkg', F), list('type', 'Type', PLANTING_TYPES, RQ),
      num('orig', 'Original Count'), num('count', 'Current Count', { min: 0 }), date('planted', 'Planted', S),
      list('phase', 'Growth Phase', GROWTH_PHASES, S), ref('mother', 'Mother', 'fac_moms'), trim('notes', 'Notes'),
    ],
    actions: [{ key: 'tag', label: 'Tag plants', min: 1, max: 1 }, { key: 'destroy', label: 'Destroy plants', min: 1, max: 1 }],
  },
  {
    key: 'fac_plants', label: 'Plants', singular: 'plant', dateField: 'planted', statusField: 'alive', defaultSort: { key: 'tag', dir: 'asc' },
    items: [
      txt('tag', 'Plant Tag', { ...FS, ...RQ, scanner: 'rfid' }), ref('strain', 'Strain', 'set_strains', { ...S, ...RQ }),
      ref('room', 'Room', 'set_rooms', { ...S, ...RQ }), list('phase', 'Growth Phase', GROWTH_PHASES, FS), date('planted', 'Planted', S),
      date('phaseDate', 'Phase Changed'), ref('planting', 'Planting', 'fac_plantings'), ref('harvest', 'Harvest', 'fac_harvests'),
      status('alive', 'Alive', HIDE), check('mark_as_dead', 'Mark As Dead'), list('waste_method', 'Waste Method', WASTE_METHODS),
      list('mix_material', 'Mix Material', MIX_MATERIALS), meas('dead_weight', 'Dead Weight', SCALE, { scanner: 'scale', format: 'measure:g' }),
      list('waste_reason', 'Waste Reason', METRC_WASTE_REASONS), meas('wetWeight', 'Wet Weight', SCALE, { scanner: 'scale' }),
      trim('notes', 'Notes'),
    ],
    actions: [
      { key: 'move', label: 'Move', min: 1 }, { key: 'phase', label: 'Change phase', min: 1 },
      { key: 'destroy', label: 'Destroy', min: 1 }, { key: 'harvest', label: 'Harvest', min: 1, max: 500 },
    ],
  },
  {
    key: 'fac_harvests', label: 'Harvests', singular: 'harvest', dateField: 'harvested', defaultSort: { key: 'harvested', dir: 'desc' },
    items: [
      // the edit form's sections (issue 33 item 3): the harvest, its weights, its drying; the columns keep this order
      ...grouped('Harvest', [
        txt('name', 'Harvest', { ...FS, ...RQ }), ref('strain', 'Strain', 'set_strains', S), ref('room', 'Harvested From', 'set_rooms'),
        ref('dryRoom', 'Drying Room', 'set_rooms'), date('harvested', 'Harvest Date', S), num('plants', 'Plants', S),
      ]),
      ...grouped('Weights', [
        meas('wetWeight', 'Wet Weight', SCALE, { ...S, scanner: 'scale' }), meas('dryWeight', 'Dry Weight', SCALE, { ...S, scanner: 'scale' }),
        meas('wasteWeight', 'Waste Weight', SCALE),
      ]),
      ...grouped('Drying and status', [
        list('status', 'Status', HARVEST_STATUS, F), date('finished', 'Finished'), trim('notes', 'Notes'),
        // SPEC §2.6 gaugearray: the moisture checks taken while the harvest dries and cures
        { key: 'moisture', label: 'Moisture Checks (%)', type: 'gaugearray', min: 0, max: 100, show: 'no' },
      ]),
      // SPEC §2.6 function: computed from the weights on every save (schemas/formula.ts)
      { key: 'dryYield', label: 'Dry Yield (% of wet)', type: 'function', formula: 'round(dryWeight / wetWeight * 100, 1)', align: 'right', group: 'Weights' },
    ],
    actions: [
      { key: 'dry', label: 'Record dry weight / waste', min: 1, max: 1 }, { key: 'package', label: 'Make packages', min: 1, max: 1 },
      { key: 'finish', label: 'Finish harvest', min: 1 },
    ],
  },
  {
    key: 'fac_processing', label: 'Processing', dateField: 'started', defaultSort: { key: 'started', dir: 'desc' },
    items: [
      txt('name', 'Batch', { ...FS, ...RQ }), list('process', 'Process', PROCESS_TYPES, F), ref('harvest', 'Source Harvest', 'fac_harvests'),
      qr('inputTag', 'Input Package'), qr('outputTag', 'Output Package'), meas('inputWeight', 'Input Weight', WEIGHT, { scanner: 'scale' }),
      meas('outputWeight', 'Output Weight', WEIGHT, { ...S, scanner: 'scale' }), num('yieldPct', 'Yield %'),
      txt('operator', 'Operator', F), date('started', 'Started', S), date('completed', 'Completed'),
      list('status', 'Status', PROCESS_STATUS, S), trim('notes', 'Notes'),
    ],
  },
  {
    key: 'fac_trim', label: 'Trim', dateField: 'trimDate', defaultSort: { key: 'trimDate', dir: 'desc' },
    items: [
      ref('harvest', 'Harvest', 'fac_harvests', { ...S, ...RQ }), txt('trimmer', 'Trimmer', F), date('trimDate', 'Date', S),
      list('method', 'Method', TRIM_METHODS, F), meas('inputWeight', 'Input (dry)', SCALE, { scanner: 'scale' }),
      meas('budWeight', 'Bud Weight', SCALE, { ...S, scanner: 'scale' }), meas('trimWeight', 'Trim Weight', SCALE, { scanner: 'scale' }),
      num('hours', 'Hours'), money('payRate', 'Pay Rate / lb'), money('labor', 'Labor Cost', { ro: 'yes' }), check('verified', 'Verified'),
      // SPEC §2.6 remote field: the Remote button reads it from the trim room's scale (sen_input_devices fac_trim.shake)
      { key: 'shake', label: 'Shake (remote scale)', type: 'remote', show: 'no' },
    ],
  },
  {
    key: 'fac_reports', label: 'Reports', dateField: 'generated', defaultSort: { key: 'generated', dir: 'desc' },
    items: [
      txt('name', 'Report', { ...FS, ...RQ }), list('type', 'Type', REPORT_TYPES, F), date('periodStart', 'Period Start'), date('periodEnd', 'Period End'),
      date('generated', 'Generated', S), txt('preparedBy', 'Prepared By'), pdf('file', 'Report PDF'), check('submitted', 'Submitted to State'),
      trim('summary', 'Summary'),
    ],
  },
  {
    key: 'fac_waste', label: 'Waste', singular: 'waste record', dateField: 'wasteDate', defaultSort: { key: 'wasteDate', dir: 'desc' },
    items: [
      date('wasteDate', 'Date', { ...S, ...RQ }), list('wasteType', 'Waste Type', WASTE_TYPES, F), list('reason', 'Reason', WASTE_REASONS, F),
      list('method', 'Waste Method', WASTE_METHODS, RQ), list('mix_material', 'Mix Material', MIX_MATERIALS, RQ),
      meas('weight', 'Weight', SCALE, { ...S, ...RQ, scanner: 'scale' }), ref('room', 'Room', 'set_rooms'), ref('harvest', 'Harvest', 'fac_harvests'),
      txt('witness', 'Witness'), check('reported', 'Reported to State'), trim('notes', 'Notes'),
    ],
  },
  // ----------------------------------------------------------------- Tasks
  {
    key: 'sch_tasks', label: 'Tasks', singular: 'task', dateField: 'start', defaultSort: { key: 'start', dir: 'asc' },
    items: [
      txt('title', 'Title', { ...FS, ...RQ }), date('start', 'Start', { ...S, ...RQ }), date('end', 'End', S), check('allDay', 'All Day'),
      txt('assignee', 'Assignee', F), ref('room', 'Room', 'set_rooms'), list('category', 'Category', TASK_CATEGORIES, F),
      list('priority', 'Priority', PRIORITIES, S), list('status', 'Status', TASK_STATUS, S), trim('notes', 'Notes'),
      // a recurring task: an RRULE (app/areas/calendar/recur.ts) and the local days it skips
      txt('repeat', 'Repeats'), txt('except', 'Skipped Days', HIDE),
    ],
  },
  // ----------------------------------------------------------------- Sensors
  {
    key: 'sen_devices', label: 'Devices', singular: 'device', dateField: 'lastSeen', statusField: 'online', defaultSort: { key: 'deviceName', dir: 'asc' },
    items: [
      txt('deviceID', 'Device ID', { ...FS, ...RQ }), txt('deviceName', 'Device Name', { ...FS, ...RQ }), ref('location', 'Location', 'set_rooms', S),
      list('type', 'Type', DEVICE_TYPES, { ...F, ...RQ }), txt('model', 'Model'), txt('firmware', 'Firmware'), txt('ip', 'IP Address', HIDE),
      date('lastSeen', 'Last Seen', S), num('battery', 'Battery %', { min: 0, max: 100 }), status('online', 'Online'),
    ],
  },
  {
    // one row per code a device reports (the sensor_hourly_rollup pipeline reads the same shape);
    // GET /dt/v1/{deviceID}?last=1 answers the codes of the newest read_at (app/api/dt/sensors.server.ts)
    key: 'sen_readings', label: 'Sensor Readings', dateField: 'read_at', editable: 'no', defaultSort: { key: 'read_at', dir: 'desc' },
    items: [
      txt('deviceID', 'Device ID', { ...FS, ...RQ }), txt('code', 'Code', { ...F, ...RQ }), num('value', 'Value', RQ),
      date('read_at', 'Read At', { ...S, ...RQ }),
    ],
  },
  {
    key: 'sen_scanner_settings', label: 'Scanner Settings', defaultSort: { key: 'table', dir: 'asc' },
    items: [
      txt('table', 'Table', { ...FS, ...RQ }), txt('field', 'Field', { ...F, ...RQ }), list('type', 'Type', SCANNER_TYPES, RQ),
      txt('description', 'Description'),
    ],
  },
  {
    key: 'sen_input_devices', label: 'Input Devices', defaultSort: { key: 'field', dir: 'asc' },
    items: [
      txt('field', 'Field', { ...FS, ...RQ }), txt('deviceid', 'Device ID', { ...F, ...RQ }), list('type', 'Type', SCANNER_TYPES, RQ),
      list('args', 'Args', DEVICE_ARGS), ref('station', 'Station', 'sen_devices', {}, 'deviceName'),
    ],
  },
  // ----------------------------------------------------------------- Distribution
  {
    key: 'dis_products', label: 'Products', dateField: 'added', statusField: 'active', defaultSort: { key: 'name', dir: 'asc' },
    items: [
      txt('name', 'Product', { ...FS, ...RQ }), txt('sku', 'SKU', F), txt('brand', 'Brand', { ...F, ...S }), ref('prodtype', 'Product Type', 'set_prodtypes', S),
      ref('strain', 'Strain', 'set_strains'), ref('supplier', 'Supplier', 'set_clients'), meas('unitSize', 'Unit Size', ANY), num('caseQty', 'Units / Case'),
      money('wholesale', 'Wholesale', S), money('msrp', 'MSRP'), image('image', 'Image'), pdf('coa', 'COA'), trim('description', 'Description'),
      date('added', 'Added', S), status('active', 'Active'),
    ],
  },
  {
    key: 'dis_inventory', label: 'Inventory', dateField: 'received', defaultSort: { key: 'received', dir: 'desc' },
    items: [
      qr('tag', 'Package Tag', { ...FS, ...RQ, scanner: 'rfid' }), ref('product', 'Product', 'dis_products', { ...S, ...RQ }),
      meas('qty', 'Quantity', ANY, { ...S, scanner: 'scale' }), meas('reserved', 'Reserved', ANY), ref('location', 'Location', 'set_rooms'),
      txt('shelf', 'Shelf'), ref('supplier', 'Supplier', 'set_clients', F), txt('batch', 'Batch / Lot', F), money('unitCost', 'Unit Cost'),
      list('labStatus', 'Lab Status', LAB_STATUS), date('received', 'Received', S), date('expires', 'Expires', S), trim('note', 'Note'),
    ],
  },
  {
    key: 'dis_cart', label: 'Create Order', singular: 'order', dateField: 'created', defaultSort: { key: 'created', dir: 'desc' },
    items: [
      ref('client', 'Client', 'set_clients', { ...FS, ...RQ }), ref('buyer', 'Buyer', 'set_contacts'), txt('rep', 'Sales Rep'), date('created', 'Order Started', S),
      { key: 'items', label: 'Items', type: 'array', format: 'array', array: lineItems }, money('subtotal', 'Subtotal', { ro: 'yes' }),
      list('terms', 'Terms', PAY_TERMS), date('requestedDelivery', 'Requested Delivery'), trim('notes', 'Notes'),
    ],
  },
  {
    key: 'dis_orders', label: 'Orders', singular: 'order', dateField: 'orderDate', defaultSort: { key: 'orderDate', dir: 'desc' },
    items: [
      txt('orderNo', 'Order #', { ...FS, ...RQ }), ref('client', 'Client', 'set_clients', { ...FS, ...RQ }), date('orderDate', 'Order Date', S),
      date('deliveryDate', 'Delivery Date', S), { key: 'items', label: 'Line Items', type: 'array', format: 'array', array: lineItems },
      money('subtotal', 'Subtotal', { ro: 'yes' }), money('exciseTax', 'Excise Tax', { ro: 'yes' }), money('total', 'Total', { ...S, ro: 'yes' }),
      list('status', 'Status', ORDER_STATUS, { ...F, ...S }), list('terms', 'Terms', PAY_TERMS), check('paid', 'Paid'),
      ref('buyer', 'Buyer', 'set_contacts'), txt('rep', 'Sales Rep', F), txt('manifestNo', 'Manifest #', F), pdf('manifest', 'Manifest PDF'), trim('notes', 'Notes'),
    ],
  },
  {
    key: 'dis_reports', label: 'Reports', dateField: 'generated', defaultSort: { key: 'generated', dir: 'desc' },
    items: [
      txt('name', 'Report', { ...FS, ...RQ }), list('type', 'Type', REPORT_TYPES, F), date('periodStart', 'Period Start'), date('periodEnd', 'Period End'),
      date('generated', 'Generated', S), txt('preparedBy', 'Prepared By'), money('totalSales', 'Total Sales'), num('orders', 'Orders'),
      pdf('file', 'Report PDF'), trim('summary', 'Summary'),
    ],
  },
  // ----------------------------------------------------------------- Testing
  {
    key: 'tes_inventory', label: 'Testing Inventory', dateField: 'received', statusField: 'passed', defaultSort: { key: 'received', dir: 'desc' },
    items: [
      txt('sampleId', 'Sample ID', { ...FS, ...RQ }), qr('tag', 'Source Package', { ...F, scanner: 'rfid' }), ref('strain', 'Strain', 'set_strains', S),
      list('sampleType', 'Sample Type', SAMPLE_TYPES, F), list('lab', 'Lab', LABS, F),
      meas('weight', 'Sample Weight', ['g', 'ml', 'units'], { scanner: 'scale' }), date('received', 'Received', S), date('reported', 'Results Reported'),
      list('testStatus', 'Status', TEST_STATUS, S), num('thc', 'Total THC %'), num('cbd', 'Total CBD %'), num('terpenes', 'Terpenes %'),
      num('moisture', 'Moisture %', HIDE), check('pesticides', 'Pesticides Pass'), check('microbials', 'Microbials Pass'),
      status('passed', 'Passed', HIDE), pdf('coa', 'COA'), trim('notes', 'Notes'),
    ],
  },
  // ----------------------------------------------------------------- Finance
  {
    key: 'tax_inventory', label: 'Tax Inventory', dateField: 'taxDate', defaultSort: { key: 'taxDate', dir: 'desc' },
    items: [
      qr('tag', 'Package Tag', { ...FS, ...RQ }), txt('item', 'Item', F), list('category', 'Category', INV_CATEGORIES),
      meas('weight', 'Weight', ANY), money('value', 'Taxable Value', S), list('taxKind', 'Tax', TAX_KINDS), num('rate', 'Rate %'),
      money('taxAmount', 'Tax Amount', S), tax('taxState', 'Tax State', { ...S, ...RQ }), txt('period', 'Period', F),
      date('taxDate', 'Date', S),
    ],
  },
  {
    key: 'fin_payments', label: 'Payments', singular: 'payment', dateField: 'paid', defaultSort: { key: 'paid', dir: 'desc' },
    items: [
      txt('paymentNo', 'Payment #', { ...FS, ...RQ }), ref('client', 'Client', 'set_clients', { ...FS, ...RQ }), date('paid', 'Date', S),
      money('amount', 'Amount', { ...S, ...RQ }), list('method', 'Method', PAY_METHODS, F), txt('reference', 'Reference #'),
      txt('invoice', 'Invoice #', F), money('taxAmount', 'Tax Portion'), tax('taxState', 'Tax State', S),
      txt('receivedBy', 'Received By'), check('cleared', 'Cleared'), trim('memo', 'Memo'),
    ],
  },
  {
    key: 'tax_receivables', label: 'Receivables', dateField: 'invoiceDate', defaultSort: { key: 'dueDate', dir: 'asc' },
    items: [
      txt('invoiceNo', 'Invoice #', { ...FS, ...RQ }), ref('client', 'Client', 'set_clients', { ...FS, ...RQ }), date('invoiceDate', 'Invoice Date', S),
      date('dueDate', 'Due Date', S), money('amount', 'Amount', S), money('exciseTax', 'Excise Tax'), money('salesTax', 'Sales Tax'),
      money('balance', 'Balance Due', S), tax('taxState', 'Tax State', { ...S, ...RQ }), list('terms', 'Terms', PAY_TERMS),
      pdf('invoicePdf', 'Invoice PDF'), trim('notes', 'Notes'),
    ],
  },
  {
    key: 'fin_reports', label: 'Finance Reports', dateField: 'generated', defaultSort: { key: 'generated', dir: 'desc' },
    items: [
      txt('name', 'Report', { ...FS, ...RQ }), list('type', 'Type', REPORT_TYPES, F), txt('period', 'Period', F), date('generated', 'Generated', S),
      money('revenue', 'Revenue'), money('taxCollected', 'Tax Collected'), money('taxRemitted', 'Tax Remitted'), tax('taxState', 'Tax State'),
      txt('preparedBy', 'Prepared By'), pdf('file', 'Report PDF'), trim('summary', 'Summary'),
    ],
  },
] satisfies unknown[]

/** Collections of this group by facility kind (tasks, sensors, testing and finance go to both kinds). */
export const CULTIVATION_TABLES = [
  'fac_products', 'fac_inventory', 'fac_bins', 'fac_moms', 'fac_clones', 'fac_plantings', 'fac_plants',
  'fac_harvests', 'fac_processing', 'fac_trim', 'fac_reports', 'fac_waste',
] as const
export const DISTRIBUTION_TABLES = ['dis_products', 'dis_inventory', 'dis_cart', 'dis_orders', 'dis_reports'] as const
export const SHARED_TABLES = [
  'sch_tasks', 'sen_devices', 'sen_scanner_settings', 'sen_input_devices', 'tes_inventory',
  'tax_inventory', 'fin_payments', 'tax_receivables', 'fin_reports',
] as const
