/**
 * A readable comparison of two versions (issue 26 item 2): both are turned into Markdown (one line
 * per heading, paragraph, list item or table row — what a person reads), the lines are compared, and
 * a changed line shows its changed words (jsdiff). Unchanged stretches longer than a few lines fold.
 */
import { diffArrays, diffWords } from 'diff'
import { htmlToMarkdown } from './markdown.server'

export type DiffPart = { text: string; change: 'same' | 'added' | 'removed' }
export type DiffRow =
  | { kind: 'same'; text: string }
  | { kind: 'added' | 'removed'; text: string }
  | { kind: 'changed'; parts: DiffPart[] }
  | { kind: 'fold'; lines: number }

const linesOf = (html: string) =>
  htmlToMarkdown(html)
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l.trim() !== '' && !/^\|?\s*-{3,}/.test(l))

/** Rows from the older version `a` to the newer `b`; `context` unchanged lines kept around each change. */
export function compareHtml(a: string, b: string, context = 2): { rows: DiffRow[]; added: number; removed: number; changed: number } {
  const chunks = diffArrays(linesOf(a), linesOf(b))
  const rows: DiffRow[] = []
  let added = 0
  let removed = 0
  let changed = 0
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i]
    const next = chunks[i + 1]
    if (c.removed && next?.added) {
      // lines replaced: pair them up, word by word
      const n = Math.max(c.value.length, next.value.length)
      for (let j = 0; j < n; j++) {
        const was = c.value[j]
        const now = next.value[j]
        if (was !== undefined && now !== undefined) {
          changed++
          rows.push({ kind: 'changed', parts: diffWords(was, now).map((p) => ({ text: p.value, change: p.added ? 'added' : p.removed ? 'removed' : 'same' })) })
        } else if (was !== undefined) {
          removed++
          rows.push({ kind: 'removed', text: was })
        } else if (now !== undefined) {
          added++
          rows.push({ kind: 'added', text: now })
        }
      }
      i++
      continue
    }
    if (c.added || c.removed) {
      for (const line of c.value) rows.push({ kind: c.added ? 'added' : 'removed', text: line })
      if (c.added) added += c.value.length
      else removed += c.value.length
      continue
    }
    // unchanged: keep a little context on each side, fold the middle
    const lines = c.value
    const first = i === 0
    const last = i === chunks.length - 1
    const head = first ? 0 : context
    const tail = last ? 0 : context
    if (lines.length <= head + tail + 1) {
      for (const line of lines) rows.push({ kind: 'same', text: line })
      continue
    }
    for (const line of lines.slice(0, head)) rows.push({ kind: 'same', text: line })
    rows.push({ kind: 'fold', lines: lines.length - head - tail })
    for (const line of lines.slice(lines.length - tail)) rows.push({ kind: 'same', text: line })
  }
  return { rows, added, removed, changed }
}
