/**
 * client/lazy-part.tsx (decision 071): a part kept out of the common bundle is still rendered by the
 * server in the first pass (never a fallback a browser without JavaScript would keep), and the browser
 * loads the parts the server's page names before it hydrates.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { lazyPart, preloadPageParts } from '#app/client/lazy-part'

const Board = ({ label }: { label: string }) => createElement('p', null, `board ${label}`)

test('on the server a lazy part renders its content at once, inside its named wrapper', async () => {
  const Part = lazyPart('test-board', () => Promise.resolve(Board))
  // the module loads when the file does, long before a request; a turn of the event loop stands for that
  await new Promise((r) => setTimeout(r, 0))
  const html = renderToStaticMarkup(createElement(Part, { label: 'A1' }))
  expect(html).toContain('board A1')
  expect(html).toMatch(/^<div data-part="test-board" class="contents">/)
})

test('before hydration the browser loads the parts the page names, each once, and only those', async () => {
  const loads: string[] = []
  // in a browser (a document exists) registering a part loads nothing
  const g = globalThis as { document?: unknown }
  g.document = {}
  try {
    lazyPart('test-named', () => (loads.push('named'), Promise.resolve(Board)))
    lazyPart('test-other', () => (loads.push('other'), Promise.resolve(Board)))
  } finally {
    delete g.document
  }
  expect(loads).toEqual([])
  const named = (part: string) => ({ dataset: { part } })
  const doc = { querySelectorAll: () => [named('test-named'), named('test-named'), named('not-registered')] } as unknown as Document
  await preloadPageParts(doc)
  expect(loads).toEqual(['named'])
})
