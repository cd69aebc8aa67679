/**
 * CSV text (RFC 4180): fields quoted when they hold a comma, quote or line break. A text cell
 * that starts like a spreadsheet formula (= + - @) gets a leading apostrophe, so opening an
 * export in a spreadsheet never runs what a user typed into a record.
 */
const FORMULA = /^[=+\-@\t\r]/
const NUMBER = /^-?\d+(\.\d+)?$/

export function csvField(v: string): string {
  const s = FORMULA.test(v) && !NUMBER.test(v) ? `'${v}` : v
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export function csvLine(fields: string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`
}

/** Parses CSV text back into rows (tests compare an export with the screen). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    }
    else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += c
  }
  if (field || row.length) rows.push([...row, field])
  return rows
}
