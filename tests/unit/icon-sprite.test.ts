/**
 * Issue 33 item 5 / issue 30: one inline sprite; every icon the app draws is a <use> of a symbol the
 * sprite defines. The symbols are the server's markup (decision 077): rendered once, handed to the
 * sprite through its context, and in the browser kept as the page came.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { CollapseIcon, GroupIcon } from '../../app/components/drawer-icons'
import { SPRITE_MARKUP } from '../../app/components/icon-sprite.server'
import * as icons from '../../app/components/icons'

const sprite = renderToStaticMarkup(createElement(icons.SpriteMarkupContext.Provider, { value: SPRITE_MARKUP }, createElement(icons.IconSprite)))
const symbols = new Set([...sprite.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]))
const used = (markup: string) => [...markup.matchAll(/<use href="#([^"]+)"/g)].map((m) => m[1])

describe('the icon sprite', () => {
  it('every icon is one <use> of a symbol the sprite defines, with no drawing of its own', () => {
    const named = Object.entries(icons).filter(([k]) => k.endsWith('Icon') && k !== 'SpriteIcon')
    expect(named.length).toBeGreaterThan(15)
    for (const [name, Icon] of named) {
      const markup = renderToStaticMarkup(createElement(Icon as () => JSX.Element))
      expect(used(markup), name).toHaveLength(1)
      expect(symbols.has(used(markup)[0]), name).toBe(true)
      expect(markup, name).not.toMatch(/<path|<circle|<rect/)
    }
  })
  it("the drawer's groups and its collapse control draw from the sprite too", () => {
    for (const g of ['Cultivation', 'Super Admin', 'Finance']) expect(symbols.has(used(renderToStaticMarkup(createElement(GroupIcon, { name: g })))[0]), g).toBe(true)
    for (const collapsed of [true, false]) expect(symbols.has(used(renderToStaticMarkup(createElement(CollapseIcon, { collapsed })))[0])).toBe(true)
    // a group without a drawing shows its first letter
    expect(renderToStaticMarkup(createElement(GroupIcon, { name: 'Zeta' }))).toContain('>Z</text>')
  })
  it('the sprite is hidden from screen readers and takes no room', () => {
    expect(sprite).toMatch(/^<svg id="icon-sprite" aria-hidden="true" width="0" height="0"/)
  })
  it("the server writes the symbols from its markup; the browser keeps the page's, read once", () => {
    expect(sprite).toContain(`<defs>${SPRITE_MARKUP}</defs>`)
    expect(symbols.size).toBeGreaterThan(30)
    expect(symbols.has('i-edit') && symbols.has('i-group-cultivation') && symbols.has('i-drawer-expand')).toBe(true)
    // in the browser (no context): the symbols the page came with, looked up once
    let lookups = 0
    const page = '<symbol id="i-x" viewBox="0 0 24 24"><path d="M1 1"></path></symbol>'
    vi.stubGlobal('document', { getElementById: (id: string) => (lookups++, id === 'icon-sprite' ? { firstElementChild: { innerHTML: page } } : null) })
    try {
      for (let i = 0; i < 2; i++) expect(renderToStaticMarkup(createElement(icons.IconSprite))).toContain(`<defs>${page}</defs>`)
      expect(lookups).toBe(1)
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
