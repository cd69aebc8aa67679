/**
 * A help guide (app/help/content.ts): intro, a table of contents of in-page links, then one
 * section per topic. Plain server-rendered markup: it works without JavaScript, links in the
 * contents are 44 px touch targets, and the colour legend names each colour in text as well.
 * The screen title (h1) comes from ScreenView; every text here is a phrase-map key passed to t().
 */
import { Link } from '@remix-run/react'
import type { HelpBlock, HelpColour, HelpPage } from '../help/content'
import { useT } from '../i18n/t'

/** The renderer's own labels (phrase-map keys like every help text). */
export const HELP_UI = {
  contents: 'Contents',
  backToContents: 'Back to contents',
  note: 'Note',
  colour: 'Colour',
  when: 'When',
  meaning: 'Meaning',
  opensNewTab: 'opens in a new tab',
  colours: { red: 'Red', orange: 'Orange', yellow: 'Yellow', green: 'Green', blue: 'Blue' } as Record<HelpColour, string>,
} as const

const SWATCH: Record<HelpColour, string> = {
  red: 'bg-red-500',
  orange: 'bg-orange-500',
  yellow: 'bg-yellow-400',
  green: 'bg-green-500',
  blue: 'bg-blue-500',
}

const LINK = 'inline-flex min-h-11 items-center font-medium text-canopy-400 underline underline-offset-4 hover:no-underline'
/** a table cell that is just an in-app address is shown as a link to it */
const ROUTE_CELL = /^\/[A-Za-z][\w/-]*(#[\w-]+)?$/

function hostOf(href: string): string {
  try {
    return new URL(href).host.replace(/^www\./, '')
  } catch {
    return href
  }
}

function BlockView({ block }: { block: HelpBlock }) {
  const t = useT()
  switch (block.kind) {
    case 'p':
      return <p>{t(block.text)}</p>
    case 'steps':
      return (
        <ol className="list-decimal space-y-2 pl-7 marker:font-semibold marker:text-canopy-400">
          {block.items.map((item, i) => (
            <li key={i} className="pl-1">
              {t(item)}
            </li>
          ))}
        </ol>
      )
    case 'list':
      return (
        <ul className="list-disc space-y-2 pl-7">
          {block.items.map((item, i) => (
            <li key={i} className="pl-1">
              {t(item)}
            </li>
          ))}
        </ul>
      )
    case 'table':
      return (
        <div className="relative overflow-x-auto">
          <table className="min-w-full border-collapse text-left">
            <thead>
              <tr>
                {block.head.map((h, i) => (
                  <th key={i} scope="col" className="border-b border-slate-700 px-3 py-2 font-semibold text-slate-200">
                    {t(h)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r} className="border-b border-slate-800 align-top">
                  {row.map((cell, c) => {
                    const content = ROUTE_CELL.test(cell) ? (
                      <Link to={cell} className={LINK}>
                        {cell}
                      </Link>
                    ) : (
                      t(cell)
                    )
                    return c === 0 ? (
                      <th key={c} scope="row" className="px-3 py-2 font-medium text-slate-200">
                        {content}
                      </th>
                    ) : (
                      <td key={c} className="px-3 py-2">
                        {content}
                      </td>
                    )
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )
    case 'note':
      return (
        <div role="note" className="rounded-md border border-l-4 border-slate-700 border-l-amber-400 bg-slate-900 px-4 py-3 text-slate-200">
          <p>
            <strong className="font-semibold">{t(HELP_UI.note)}:</strong> {t(block.text)}
          </p>
        </div>
      )
    case 'link': {
      const internal = block.href.startsWith('/')
      return (
        <p className="flex flex-wrap items-center gap-x-3">
          {internal ? (
            <Link to={block.href} className={LINK}>
              {t(block.label)}
            </Link>
          ) : (
            <a href={block.href} target="_blank" rel="noopener noreferrer" className={LINK}>
              {t(block.label)}
              <span className="sr-only"> ({t(HELP_UI.opensNewTab)})</span>
              <span aria-hidden="true">&nbsp;↗</span>
            </a>
          )}
          {internal ? null : <span className="text-sm text-slate-400">{hostOf(block.href)}</span>}
          <span>{t(block.text)}</span>
        </p>
      )
    }
    case 'colour':
      return (
        <div className="relative overflow-x-auto">
          <table className="min-w-full border-collapse text-left">
            <thead>
              <tr>
                <th scope="col" className="border-b border-slate-700 px-3 py-2 font-semibold text-slate-200">
                  {t(HELP_UI.colour)}
                </th>
                <th scope="col" className="border-b border-slate-700 px-3 py-2 font-semibold text-slate-200">
                  {t(HELP_UI.when)}
                </th>
                <th scope="col" className="border-b border-slate-700 px-3 py-2 font-semibold text-slate-200">
                  {t(HELP_UI.meaning)}
                </th>
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row) => (
                <tr key={row.colour} className="border-b border-slate-800 align-top" data-colour={row.colour}>
                  <th scope="row" className="whitespace-nowrap px-3 py-2 font-semibold text-slate-200">
                    <span aria-hidden="true" className={`mr-2 inline-block h-5 w-5 rounded-full border border-slate-600 align-middle ${SWATCH[row.colour]}`} />
                    {t(HELP_UI.colours[row.colour])}
                  </th>
                  <td className="px-3 py-2">{t(row.when)}</td>
                  <td className="px-3 py-2">{t(row.meaning)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )
  }
}

export function HelpView({ page }: { page: HelpPage }) {
  const t = useT()
  return (
    <div className="flex max-w-4xl flex-col gap-6 text-base leading-relaxed text-slate-300" data-help={page.path}>
      <p className="text-lg text-slate-200">{t(page.intro)}</p>
      <nav id="help-contents" aria-labelledby="help-contents-title" className="scroll-mt-4 rounded-md border border-slate-700 p-3">
        <p id="help-contents-title" className="mb-1 px-3 font-semibold text-slate-200">
          {t(HELP_UI.contents)}
        </p>
        <ul className="grid gap-1 sm:grid-cols-2">
          {page.sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="flex min-h-11 items-center rounded px-3 text-canopy-400 hover:bg-slate-800">
                {t(s.heading)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {page.sections.map((s) => (
        <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="flex scroll-mt-4 flex-col gap-3 border-t border-slate-700 pt-4">
          <h2 id={`${s.id}-title`} className="text-xl font-semibold text-canopy-400">
            {t(s.heading)}
          </h2>
          {s.blocks.map((b, i) => (
            <BlockView key={i} block={b} />
          ))}
          <a href="#help-contents" className="inline-flex min-h-11 items-center self-start text-sm text-slate-400 underline underline-offset-4">
            {t(HELP_UI.backToContents)}
          </a>
        </section>
      ))}
    </div>
  )
}
