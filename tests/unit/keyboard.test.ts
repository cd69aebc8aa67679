/**
 * The keyboard shortcuts' and the keyboard-wedge scanner's logic (issue 31 item 2; app/client/keyboard.ts):
 * which key is which shortcut, where shortcuts keep out (fields, modifier keys), row focus movement, and a
 * scanner told from a person by the gaps between keys.
 */
import { describe, expect, it } from 'vitest'
import { isTyping, nextRow, scanUrl, shortcutOf, WedgeDetector } from '../../app/client/keyboard'

describe('shortcutOf', () => {
  it('names the shortcut keys', () => {
    expect(shortcutOf({ key: '/' })).toBe('search')
    expect(shortcutOf({ key: 'n' })).toBe('add')
    expect(shortcutOf({ key: '?' })).toBe('help')
    expect(shortcutOf({ key: 'ArrowDown' })).toBe('next')
    expect(shortcutOf({ key: 'ArrowUp' })).toBe('previous')
    expect(shortcutOf({ key: 'Enter' })).toBe('open')
    expect(shortcutOf({ key: 'x' })).toBeNull()
    expect(shortcutOf({ key: 'N' })).toBeNull()
  })
  it('is never a shortcut with Ctrl, Alt or Meta held', () => {
    for (const mod of ['ctrlKey', 'altKey', 'metaKey'] as const) {
      for (const key of ['/', 'n', '?', 'ArrowDown', 'Enter']) expect(shortcutOf({ key, [mod]: true }), `${mod}+${key}`).toBeNull()
    }
  })
})

describe('isTyping', () => {
  it('is true in text fields, text areas, selects and editable content', () => {
    expect(isTyping({ tagName: 'INPUT', type: 'text' })).toBe(true)
    expect(isTyping({ tagName: 'input', type: 'search' })).toBe(true)
    expect(isTyping({ tagName: 'INPUT' })).toBe(true)
    expect(isTyping({ tagName: 'TEXTAREA' })).toBe(true)
    expect(isTyping({ tagName: 'SELECT' })).toBe(true)
    expect(isTyping({ tagName: 'DIV', isContentEditable: true })).toBe(true)
  })
  it('is false on buttons, check boxes, links, rows and the page', () => {
    expect(isTyping({ tagName: 'INPUT', type: 'checkbox' })).toBe(false)
    expect(isTyping({ tagName: 'INPUT', type: 'submit' })).toBe(false)
    expect(isTyping({ tagName: 'BUTTON' })).toBe(false)
    expect(isTyping({ tagName: 'A' })).toBe(false)
    expect(isTyping({ tagName: 'TR' })).toBe(false)
    expect(isTyping({ tagName: 'BODY', isContentEditable: false })).toBe(false)
    expect(isTyping(null)).toBe(false)
  })
})

describe('nextRow', () => {
  it('starts at the first row going down, the last going up, and stays inside the table', () => {
    expect(nextRow(-1, 5, 1)).toBe(0)
    expect(nextRow(-1, 5, -1)).toBe(4)
    expect(nextRow(0, 5, 1)).toBe(1)
    expect(nextRow(4, 5, 1)).toBe(4)
    expect(nextRow(0, 5, -1)).toBe(0)
    expect(nextRow(3, 5, -1)).toBe(2)
    expect(nextRow(-1, 0, 1)).toBe(-1)
  })
})

/** feeds `code` one key every `gap` ms from `start`, then Enter `gap` ms later */
function scan(d: WedgeDetector, code: string, gap: number, start = 1000): string | null {
  let at = start
  for (const ch of code) {
    d.push(ch, at)
    at += gap
  }
  return d.enter(at)
}

describe('WedgeDetector', () => {
  const TAG = '1A4060300003B01000012345' // 24 characters, a METRC tag
  it('answers the code of a fast burst ending in Enter', () => {
    expect(scan(new WedgeDetector(), TAG, 8)).toBe(TAG)
    expect(scan(new WedgeDetector(), TAG, 50)).toBe(TAG)
  })
  it('answers nothing for a person typing (gaps over 50 ms) or for too short a burst', () => {
    expect(scan(new WedgeDetector(), TAG, 120)).toBeNull()
    expect(scan(new WedgeDetector(), TAG, 51)).toBeNull()
    expect(scan(new WedgeDetector(), 'abc', 5)).toBeNull()
  })
  it('answers nothing when Enter comes late after the burst', () => {
    const d = new WedgeDetector()
    for (const [i, ch] of [...TAG].entries()) d.push(ch, 1000 + i * 5)
    expect(d.enter(1000 + TAG.length * 5 + 500)).toBeNull()
  })
  it('a slow key starts a new burst: only the fast part after it counts', () => {
    const d = new WedgeDetector()
    d.push('x', 0)
    d.push('y', 400)
    expect(scan(d, TAG, 10, 900)).toBe(TAG)
  })
  it('a non-printable key (an arrow, Shift) breaks a burst, and Enter clears it', () => {
    const d = new WedgeDetector()
    for (const [i, ch] of [...'ABCDEF'].entries()) d.push(ch, i * 5)
    d.push('ArrowDown', 31)
    d.push('G', 35)
    expect(d.enter(40)).toBeNull()
    expect(scan(d, 'WXYZ', 5, 100)).toBe('WXYZ')
    expect(d.enter(130)).toBeNull()
  })
  it('Shift (a scanner typing capitals) does not break a burst', () => {
    const d = new WedgeDetector()
    let at = 0
    for (const ch of 'AB12CD') {
      d.push('Shift', at)
      d.push(ch, at + 2)
      at += 6
    }
    expect(d.enter(at)).toBe('AB12CD')
  })
  it('inBurst is true only while keys keep coming fast', () => {
    const d = new WedgeDetector()
    expect(d.inBurst(0)).toBe(false)
    d.push('1', 0)
    expect(d.inBurst(20)).toBe(true)
    expect(d.inBurst(200)).toBe(false)
  })
})

describe('scanUrl', () => {
  it('searches the table by tag with scan=1, or its first searchable column', () => {
    expect(scanUrl('/culPlants', '1A4 0/1', true)).toBe('/culPlants?col=tag&q=1A4+0%2F1&scan=1')
    expect(scanUrl('/culBins', 'B-7', false)).toBe('/culBins?q=B-7&scan=1')
  })
})
