/**
 * Money is exact (issue 24 item 5, decision 040): every amount is an integer number of cents.
 * Rounding is stated once, here: half away from zero, to the cent, done once per line (quantity ×
 * unit price less the line's discount) and once per tax (rate × the order's taxable subtotal).
 * The subtotal, tax total and total are sums of those rounded cents, never rounded again, so the
 * cart, the order, the invoice PDF, the reports and the API show the same figures.
 * Pure and browser-safe: the cart's instant totals use these same functions.
 */

/** a / b rounded half away from zero (b > 0), in BigInt so no product overflows */
export function divRound(a: bigint, b: bigint): bigint {
  const neg = a < 0n
  const n = neg ? -a : a
  const q = n / b
  const r = n % b
  const out = r * 2n >= b ? q + 1n : q
  return neg ? -out : out
}

/** "12.5" or "12.50" or "1,234.5" → cents; null when not an amount. At most 2 decimals. */
export function parseCents(input: unknown): number | null {
  if (typeof input === 'number') return Number.isFinite(input) ? Math.round(input * 100) : null
  const s = String(input ?? '').trim().replace(/[$,\s]/g, '')
  if (!/^-?\d{1,12}(\.\d{0,2})?$/.test(s)) return null
  const [i, f = ''] = s.replace('-', '').split('.')
  const c = Number(i) * 100 + Number((f + '00').slice(0, 2))
  return s.startsWith('-') ? -c : c
}

/** A quantity in thousandths (3 decimals at most): "2.5" → 2500; null when not a positive quantity. */
export function parseMilli(input: unknown): number | null {
  const s = String(input ?? '').trim()
  if (!/^\d{1,9}(\.\d{0,3})?$/.test(s)) return null
  const [i, f = ''] = s.split('.')
  const m = Number(i) * 1000 + Number((f + '000').slice(0, 3))
  return m > 0 ? m : null
}

/** A percent with up to 2 decimals in basis points (0–10000): "12.5" → 1250. */
export function parsePercentBp(input: unknown): number | null {
  const s = String(input ?? '').trim() || '0'
  if (!/^\d{1,3}(\.\d{0,2})?$/.test(s)) return null
  const [i, f = ''] = s.split('.')
  const bp = Number(i) * 100 + Number((f + '00').slice(0, 2))
  return bp <= 10000 ? bp : null
}

/** A line's cents: qty (thousandths) × unit price (cents) × (1 − discount), rounded once. */
export function lineCents(qtyMilli: number, priceCents: number, discountBp: number): number {
  return Number(divRound(BigInt(qtyMilli) * BigInt(priceCents) * BigInt(10000 - discountBp), 1000n * 10000n))
}

/** The gross of a line before its discount (for the discount column). */
export function grossCents(qtyMilli: number, priceCents: number): number {
  return Number(divRound(BigInt(qtyMilli) * BigInt(priceCents), 1000n))
}

/** A tax's cents: rate in thousandths of a percent (15 % = 15000) of the taxable cents, rounded once. */
export function taxCents(taxableCents: number, rateMilliPct: number): number {
  return Number(divRound(BigInt(taxableCents) * BigInt(rateMilliPct), 100000n))
}

/** 123456 → "1,234.56" (no currency sign) */
export function fmtCents(c: number): string {
  const neg = c < 0
  const n = Math.abs(Math.trunc(c))
  const whole = Math.floor(n / 100).toLocaleString('en-US')
  return `${neg ? '-' : ''}${whole}.${String(n % 100).padStart(2, '0')}`
}
export const usd = (c: number) => `$${fmtCents(c)}`
/** cents as the dollars the generic table screens show (currency fields): exact to the cent */
export const dollars = (c: number) => Number((c / 100).toFixed(2))
/** thousandths → "2.5" */
export const fmtMilli = (m: number) => String(m / 1000)
