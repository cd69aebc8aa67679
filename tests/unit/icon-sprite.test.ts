/** Issue 33 item 5 / issue 30: one inline sprite; every icon the app draws is a <use> of a symbol the sprite defines. */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { CollapseIcon, GROUP_DRAWINGS, GroupIcon } from '../../app/components/drawer-icons'
import * as icons from '../../app/components/icons'

const sprite = renderToStaticMarkup(createElement(icons.IconSprite, { extra: GROUP_DRAWINGS }))
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
    expect(sprite).toMatch(/^<svg aria-hidden="true" width="0" height="0"/)
  })
})
