/**
 * What a device reply puts in a field (browser-safe): a scale's weight in the unit the field
 * shows (lb, oz or g converted, SPEC §4), rounded like every measure; a scanned code as text.
 */
import { convert, convertible, normaliseUnit, roundQty } from '../format/units'

export interface WeightReply {
  weight: number
  unit: string
}

/** The quantity and unit to show, or an error text when the field cannot take a weight. */
export function weightForField(r: WeightReply, fieldUnit: string | undefined, allowed: readonly string[]): { qty: number; unit: string } | { error: string } {
  const from = normaliseUnit(r.unit)
  if (!from || !Number.isFinite(r.weight)) return { error: 'The scale sent a reading that is not a weight.' }
  const to = fieldUnit ? normaliseUnit(fieldUnit) : null
  if (to && convertible(from, to)) return { qty: roundQty(convert(r.weight, from, to)), unit: to }
  if (allowed.includes(from)) return { qty: roundQty(r.weight), unit: from }
  const weightUnit = allowed.map((u) => normaliseUnit(u)).find((u) => u && convertible(from, u))
  if (weightUnit) return { qty: roundQty(convert(r.weight, from, weightUnit)), unit: weightUnit }
  return { error: 'This field does not take a weight.' }
}
