/**
 * The `function` field type (SPEC §2.6): a field whose value is a formula over the record's other
 * fields, e.g. `dry_weight / wet_weight * 100`. One small, closed grammar, parsed once and evaluated
 * the same way in the browser (the form shows the result as the user types) and on the server (the
 * write path stores it on every path: form, API, import, action). Nothing is ever run as code.
 *
 *   expr   := term (('+' | '-') term)*
 *   term   := unary (('*' | '/') unary)*
 *   unary  := '-' unary | atom
 *   atom   := number | field | name '(' expr (',' expr)* ')' | '(' expr ')'
 *
 * Functions: round(x[, digits]), min(a, b, …), max(a, b, …), abs(x). A field's value is its number;
 * a measure ({qty, unit}) gives its quantity in the base unit of its kind (grams, millilitres, a
 * count), so a dry weight in kg over a wet weight in g is still a true ratio; a blank or non-numeric field, or a division by zero,
 * makes the whole result blank (null) rather than a wrong number.
 */

import { normaliseUnit, UNITS } from '../format/units'

export type Formula =
  | { k: 'num'; v: number }
  | { k: 'field'; name: string }
  | { k: 'neg'; a: Formula }
  | { k: 'bin'; op: '+' | '-' | '*' | '/'; a: Formula; b: Formula }
  | { k: 'call'; fn: FormulaFn; args: Formula[] }

const FNS = ['round', 'min', 'max', 'abs'] as const
type FormulaFn = (typeof FNS)[number]

export class FormulaError extends Error {}

const MAX_LENGTH = 500

type Token = { t: 'num'; v: number } | { t: 'name'; v: string } | { t: 'op'; v: string }

function tokens(src: string): Token[] {
  const out: Token[] = []
  const re = /\s*(?:(\d+(?:\.\d+)?|\.\d+)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/(),]))/y
  let at = 0
  while (at < src.length) {
    if (/^\s*$/.test(src.slice(at))) break
    re.lastIndex = at
    const m = re.exec(src)
    if (!m) throw new FormulaError(`the formula cannot be read at "${src.slice(at).trim().slice(0, 20)}"`)
    if (m[1] !== undefined) out.push({ t: 'num', v: Number(m[1]) })
    else if (m[2] !== undefined) out.push({ t: 'name', v: m[2] })
    else out.push({ t: 'op', v: m[3] })
    at = re.lastIndex
  }
  return out
}

/** Parses a formula; throws a FormulaError in plain words when it cannot be read. */
export function parseFormula(src: string): Formula {
  if (src.length > MAX_LENGTH) throw new FormulaError(`the formula is longer than ${MAX_LENGTH} characters`)
  const ts = tokens(src)
  if (!ts.length) throw new FormulaError('the formula is empty')
  let i = 0
  const peek = () => ts[i]
  const isOp = (v: string) => peek()?.t === 'op' && peek()?.v === v
  const expect = (v: string) => {
    if (!isOp(v)) throw new FormulaError(`"${v}" expected ${peek() ? `before "${String(peek()?.v)}"` : 'at the end'}`)
    i++
  }
  let depth = 0
  const expr = (): Formula => {
    if (++depth > 50) throw new FormulaError('the formula nests too deeply')
    let a = term()
    while (isOp('+') || isOp('-')) {
      const op = (ts[i++] as { v: '+' | '-' }).v
      a = { k: 'bin', op, a, b: term() }
    }
    depth--
    return a
  }
  const term = (): Formula => {
    let a = unary()
    while (isOp('*') || isOp('/')) {
      const op = (ts[i++] as { v: '*' | '/' }).v
      a = { k: 'bin', op, a, b: unary() }
    }
    return a
  }
  const unary = (): Formula => {
    if (isOp('-')) {
      i++
      return { k: 'neg', a: unary() }
    }
    return atom()
  }
  const atom = (): Formula => {
    const tk = ts[i++]
    if (!tk) throw new FormulaError('the formula ends too early')
    if (tk.t === 'num') return { k: 'num', v: tk.v }
    if (tk.t === 'name') {
      if (!isOp('(')) return { k: 'field', name: tk.v }
      if (!(FNS as readonly string[]).includes(tk.v)) throw new FormulaError(`"${tk.v}" is not a function (use ${FNS.join(', ')})`)
      i++
      const args = [expr()]
      while (isOp(',')) {
        i++
        args.push(expr())
      }
      expect(')')
      const fn = tk.v as FormulaFn
      if ((fn === 'abs' && args.length !== 1) || (fn === 'round' && args.length > 2)) throw new FormulaError(`${fn}() takes ${fn === 'abs' ? 'one value' : 'a value and, optionally, the digits'}`)
      return { k: 'call', fn, args }
    }
    if (tk.v === '(') {
      const e = expr()
      expect(')')
      return e
    }
    throw new FormulaError(`"${tk.v}" is out of place`)
  }
  const f = expr()
  if (i < ts.length) throw new FormulaError(`"${String(ts[i].v)}" is out of place`)
  return f
}

/** The field names a formula reads, each once. */
export function formulaFields(f: Formula, out = new Set<string>()): string[] {
  if (f.k === 'field') out.add(f.name)
  else if (f.k === 'neg') formulaFields(f.a, out)
  else if (f.k === 'bin') {
    formulaFields(f.a, out)
    formulaFields(f.b, out)
  } else if (f.k === 'call') for (const a of f.args) formulaFields(a, out)
  return [...out]
}

/** A field's number: numbers, numeric text ("1,250.5"), a measure's quantity; anything else is blank. */
export function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string') {
    const s = v.trim().replace(/,/g, '')
    if (!s || !/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return null
    return Number(s)
  }
  if (v && typeof v === 'object' && 'qty' in v) {
    const m = v as { qty: unknown; unit?: unknown }
    const q = numberOf(m.qty)
    const u = normaliseUnit(m.unit)
    return q === null ? null : u ? q * UNITS[u].factor : q
  }
  return null
}

function run(f: Formula, values: Record<string, unknown>): number | null {
  switch (f.k) {
    case 'num':
      return f.v
    case 'field':
      return numberOf(values[f.name])
    case 'neg': {
      const a = run(f.a, values)
      return a === null ? null : -a
    }
    case 'bin': {
      const a = run(f.a, values)
      const b = run(f.b, values)
      if (a === null || b === null) return null
      if (f.op === '/' && b === 0) return null
      return f.op === '+' ? a + b : f.op === '-' ? a - b : f.op === '*' ? a * b : a / b
    }
    case 'call': {
      const args = f.args.map((a) => run(a, values))
      if (args.some((a) => a === null)) return null
      const n = args as number[]
      if (f.fn === 'abs') return Math.abs(n[0])
      if (f.fn === 'min') return Math.min(...n)
      if (f.fn === 'max') return Math.max(...n)
      return roundTo(n[0], n.length > 1 ? Math.trunc(n[1]) : 0)
    }
  }
}

/**
 * Half away from zero, at `digits` decimals (0–10), without binary surprises: 1.005 → 1.01, and
 * 6 oz over 2 lb × 100 (18.749999… in binary) → 18.8. The value is read to 12 significant digits first.
 */
function roundTo(x: number, digits: number): number {
  const d = Math.max(0, Math.min(10, digits))
  const r = Math.round(Number(`${Number(Math.abs(x).toPrecision(12))}e${d}`))
  return Math.sign(x) * Number(`${r}e-${d}`)
}

/** The formula's value over a record's values: a number kept to 4 decimals, or null when blank. */
export function evaluateFormula(f: Formula, values: Record<string, unknown>): number | null {
  const v = run(f, values)
  if (v === null || !Number.isFinite(v)) return null
  const r = roundTo(v, 4)
  return Object.is(r, -0) ? 0 : r
}
