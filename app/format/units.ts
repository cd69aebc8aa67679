/**
 * Units of measure (SPEC §9): weights in grams, volumes in millilitres, counts that never convert.
 * The factors are the SPEC ones, which are also the ones SQL sorts by (canopy_measure in migration
 * 001): 1 oz = 28.3495 g, 1 lb = 453.592 g (= 16 oz), 1 kg = 1000 g; 1 fl oz = 29.5735 ml,
 * 1 gal = 3785.41 ml, 1 l = 1000 ml. Also mg = 0.001 g, which SQL does not know (it sorts mg as g).
 * Pure: runs on the server and in the browser.
 */
/** The units a measure field offers (SPEC §2.6). */
export const MEASURE_UNITS = ['g', 'kg', 'oz', 'lb', 'units', 'packages', 'ml', 'l', 'fl oz', 'gal'] as const
export type MeasureUnit = (typeof MEASURE_UNITS)[number]

export type Dimension = 'weight' | 'volume' | 'count'
/** The units a schema may use, plus mg (accepted from scales and METRC, converted, not stored). */
export type Unit = MeasureUnit | 'mg'

export interface UnitDef {
  dimension: Dimension
  /** base units (g, ml, or 1 for counts) per one of this unit */
  factor: number
}

export const UNITS: Readonly<Record<Unit, UnitDef>> = {
  g: { dimension: 'weight', factor: 1 },
  mg: { dimension: 'weight', factor: 0.001 },
  kg: { dimension: 'weight', factor: 1000 },
  oz: { dimension: 'weight', factor: 28.3495 },
  lb: { dimension: 'weight', factor: 453.592 },
  ml: { dimension: 'volume', factor: 1 },
  l: { dimension: 'volume', factor: 1000 },
  'fl oz': { dimension: 'volume', factor: 29.5735 },
  gal: { dimension: 'volume', factor: 3785.41 },
  units: { dimension: 'count', factor: 1 },
  packages: { dimension: 'count', factor: 1 },
}

/** Spellings seen in forms, scales and METRC (Grams, Ounces, Pounds, Each, …), lower-cased → our unit. */
const ALIASES: Readonly<Record<string, Unit>> = {
  gram: 'g', grams: 'g', gr: 'g', gm: 'g', gms: 'g',
  milligram: 'mg', milligrams: 'mg', mgs: 'mg',
  kilogram: 'kg', kilograms: 'kg', kgs: 'kg', kilo: 'kg', kilos: 'kg',
  ounce: 'oz', ounces: 'oz', ozs: 'oz',
  pound: 'lb', pounds: 'lb', lbs: 'lb',
  milliliter: 'ml', milliliters: 'ml', millilitre: 'ml', millilitres: 'ml', mls: 'ml',
  liter: 'l', liters: 'l', litre: 'l', litres: 'l', ltr: 'l',
  'fluid ounce': 'fl oz', 'fluid ounces': 'fl oz', 'fl oz': 'fl oz', 'fl. oz': 'fl oz', floz: 'fl oz',
  gallon: 'gal', gallons: 'gal', gals: 'gal',
  each: 'units', ea: 'units', unit: 'units', count: 'units', ct: 'units', pcs: 'units', piece: 'units', pieces: 'units',
  package: 'packages', pkg: 'packages', pkgs: 'packages',
}

const KNOWN = [...MEASURE_UNITS, 'mg'] as readonly string[]

/** Our unit for a spelling ('Grams', ' lbs ', 'Each', 'fl  oz'), or null when we do not know it. */
export function normaliseUnit(s: unknown): Unit | null {
  if (typeof s !== 'string') return null
  const k = s.trim().toLowerCase().replace(/\s+/g, ' ').replace(/\.$/, '')
  if (KNOWN.includes(k)) return k as Unit
  return ALIASES[k] ?? null
}

function unitOf(s: string): Unit {
  const u = normaliseUnit(s)
  if (!u) throw new Error(`"${String(s)}" is not a unit Canopy knows (${KNOWN.join(', ')})`)
  return u
}

export function dimensionOf(unit: string): Dimension | null {
  const u = normaliseUnit(unit)
  return u ? UNITS[u].dimension : null
}

/** Whether `convert(qty, from, to)` would succeed. */
export function convertible(from: string, to: string): boolean {
  const a = normaliseUnit(from)
  const b = normaliseUnit(to)
  if (!a || !b) return false
  const d = UNITS[a].dimension
  return d === UNITS[b].dimension && (d !== 'count' || a === b)
}

/**
 * `qty` of `from` expressed in `to`, e.g. convert(1, 'lb', 'oz') → 16. Throws an Error naming both
 * units when either is unknown or they measure different things (g → each, ml → g, units → packages).
 */
export function convert(qty: number, from: string, to: string): number {
  const a = unitOf(from)
  const b = unitOf(to)
  const da = UNITS[a].dimension
  const db = UNITS[b].dimension
  if (da !== db) throw new Error(`${from} cannot be converted to ${to}: one is a ${da}, the other a ${db}`)
  if (da === 'count' && a !== b) throw new Error(`${from} cannot be converted to ${to}: they count different things`)
  if (a === b) return qty
  return (qty * UNITS[a].factor) / UNITS[b].factor
}

/** In base units (grams, millilitres, or the count itself), as SQL's canopy_measure sorts measures. */
export function toBase(qty: number, unit: string): number {
  return qty * UNITS[unitOf(unit)].factor
}

/** Numeric strings as SQL accepts them (canopy_num / canopy_measure): optional '-', digits, optional decimals. */
const NUMERIC = /^\s*-?[0-9]{1,30}(\.[0-9]{1,30})?\s*$/

/** A measure's quantity as a number: finite numbers, or numeric strings ('12.5', ' -3 '); otherwise null. */
export function quantity(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' && NUMERIC.test(v)) return Number(v)
  return null
}

export interface Measure {
  qty: number | string
  unit: string
}

/** A measure with a numeric qty and a known unit, or null. */
export function readMeasure(v: unknown): { qty: number; unit: Unit } | null {
  if (!v || typeof v !== 'object') return null
  const m = v as Partial<Measure>
  const qty = quantity(m.qty)
  const unit = normaliseUnit(m.unit)
  return qty === null || !unit ? null : { qty, unit }
}

/**
 * The unit a column keeps its measures in, from its format `measure:<unit>` (e.g. `measure:g`: the
 * scale may read lb, the record stores and shows grams). Null for a plain `measure` or anything else.
 */
export function measureUnitOf(format: string | undefined): Unit | null {
  const m = /^measure:(.+)$/.exec(format ?? '')
  return m ? normaliseUnit(m[1]) : null
}

/** A quantity rounded to 4 decimals (finer than any factor of SPEC §9 needs; 2 lb = 907.184 g). */
export const roundQty = (n: number): number => Math.round(n * 1e4) / 1e4
