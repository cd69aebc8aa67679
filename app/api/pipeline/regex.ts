/**
 * $regex: a JavaScript/PCRE-style pattern translated into a PostgreSQL ARE pattern, for the small
 * subset where both mean the same thing, and refused otherwise. Only whether a string matches
 * matters (never what a group captured), so greedy and lazy quantifiers agree.
 *
 * Allowed: literal characters, `\` before punctuation, `.`, `^`, `$`, `|`, `( )`, `(?: )`, `* + ?`
 * (and lazy `*? +? ??`), `[...]` classes with ranges and negation, `\d \D \w \W`.
 * Refused: `{n,m}`, back-references, lookaround, `\s \b \u…` and other escapes, flags but `i`.
 * Translated: `.` → any character but line terminators (PostgreSQL's `.` also matches them);
 * `\d` → `[0-9]`, `\w` → `[A-Za-z0-9_]` (PostgreSQL's follow the locale).
 */
import { LIMITS, refuse } from './limits'

const PUNCT = new Set('\\^$.|?*+()[]{}/-'.split(''))
const LINE_END = '\n\r\u2028\u2029'

export function translateRegex(pattern: unknown, options: unknown): { pattern: string; caseless: boolean } {
  if (typeof pattern !== 'string') throw refuse('$regex: the pattern must be a string')
  if (pattern.length > LIMITS.regex) throw refuse(`$regex: the pattern is longer than ${LIMITS.regex} characters`)
  if (options !== undefined && options !== '' && options !== 'i') throw refuse('$options: only "i" is supported')
  let out = ''
  let atom = false // is there something a quantifier may repeat?
  let depth = 0
  if (/[\uD800-\uDFFF]/.test(pattern)) throw refuse('$regex: characters outside the Basic Multilingual Plane are not supported')
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\') {
      const n = pattern[++i]
      if (n === undefined) throw refuse('$regex: the pattern ends with \\')
      if (n === 'd') out += '[0-9]'
      else if (n === 'D') out += '[^0-9]'
      else if (n === 'w') out += '[A-Za-z0-9_]'
      else if (n === 'W') out += '[^A-Za-z0-9_]'
      else if (PUNCT.has(n)) out += n === '/' || n === '-' ? n : `\\${n}`
      else throw refuse(`$regex: the escape \\${n} is not supported`)
      atom = true
    } else if (c === '[') {
      const end = readClass(pattern, i)
      out += end.sql
      i = end.next - 1
      atom = true
    } else if (c === '(') {
      if (pattern[i + 1] === '?') {
        if (pattern[i + 2] !== ':') throw refuse('$regex: lookaround and named groups are not supported')
        i += 2
        out += '(?:'
      } else out += '('
      depth++
      atom = false
    } else if (c === ')') {
      if (--depth < 0) throw refuse('$regex: unbalanced )')
      out += ')'
      atom = true
    } else if (c === '*' || c === '+' || c === '?') {
      if (!atom) throw refuse(`$regex: nothing to repeat before ${c}`)
      out += c
      if (pattern[i + 1] === '?') out += pattern[++i]
      atom = false
    } else if (c === '{' || c === '}') {
      throw refuse('$regex: {n,m} repetition is not supported')
    } else if (c === '.') {
      out += `[^${LINE_END}]`
      atom = true
    } else if (c === '|') {
      out += c
      atom = false
    } else if (c === '^' || c === '$') {
      out += c
      atom = false
    } else if (c === ']') {
      throw refuse('$regex: unbalanced ]')
    } else {
      // letters and digits stand for themselves; other characters are escaped (ARE: \ + non-alphanumeric is that character)
      out += /[\p{L}\p{N} ]/u.test(c) ? c : `\\${c}`
      atom = true
    }
  }
  if (depth !== 0) throw refuse('$regex: unbalanced (')
  return { pattern: out, caseless: options === 'i' }
}

/** A bracket class from `[` at `start`: literal characters, ranges, leading ^, \d \w and escaped punctuation. */
function readClass(p: string, start: number): { sql: string; next: number } {
  let i = start + 1
  let sql = '['
  if (p[i] === '^') {
    sql += '^'
    i++
  }
  let first = true
  for (; i < p.length; i++) {
    const c = p[i]
    if (c === ']' && !first) return { sql: `${sql}]`, next: i + 1 }
    first = false
    if (c === '\\') {
      const n = p[++i]
      if (n === 'd') sql += '0-9'
      else if (n === 'w') sql += 'A-Za-z0-9_'
      else if (n !== undefined && PUNCT.has(n)) sql += `\\${n}`
      else throw refuse(`$regex: the escape \\${n ?? ''} is not supported inside [ ]`)
    } else if (c === '[') throw refuse('$regex: [ inside a class must be escaped')
    else if (c === ']') throw refuse('$regex: an empty class [] is not supported')
    else if (c === '-' || /[\p{L}\p{N} ]/u.test(c)) sql += c
    else sql += `\\${c}`
  }
  throw refuse('$regex: unbalanced [')
}
