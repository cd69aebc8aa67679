/**
 * Saved views in the table toolbar's More menu (decision 073): the screen's views this user sees
 * (their own and the facility's shared ones, each a link that opens it, the one on screen marked),
 * "Save this view" (a name, share with the facility, pin to the menu: a plain form posting to
 * /saved-views, which goes back to the saved view with a confirmation) and Manage views (the page
 * that renames, shares, pins and deletes). Plain links and forms, so it works without JavaScript.
 */
import { Form, Link, useLocation } from '@remix-run/react'
import type { SavedView } from '../../screens/saved-views.server'
import { viewSearch } from '../../screens/table-url'

/** the page of a screen's views, which is also where a save or a change posts (a refused one shows there) */
export const savedViewsPath = (screen: string) => `/saved-views?screen=${encodeURIComponent(screen)}`

const input = 'min-h-11 min-w-0 flex-1 rounded-md border border-slate-600 bg-slate-950 px-2 text-sm text-slate-100'
const box = 'h-5 w-5 accent-canopy-500'

/** The save form: the table's current settings under a name (the menu's, and the manage page's after a refused save). */
export function SaveViewForm({ screen, query, t, draft, btn, idPrefix = 'save-view' }: { screen: string; query: string; t: (k: string) => string; draft?: { name: string; shared: boolean; pinned: boolean }; btn: string; idPrefix?: string }) {
  return (
    <Form method="post" action={savedViewsPath(screen)} className="flex flex-col gap-2" aria-label={t('Save this view')}>
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="screen" value={screen} />
      <input type="hidden" name="query" value={query} />
      <label htmlFor={`${idPrefix}-name`} className="text-sm text-slate-300">
        {t('Save this view as')}
      </label>
      <div className="flex gap-1">
        <input id={`${idPrefix}-name`} name="name" defaultValue={draft?.name ?? ''} maxLength={200} required autoComplete="off" className={input} />
        <button type="submit" className={btn}>
          {t('Save view')}
        </button>
      </div>
      <span className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <label className="inline-flex min-h-11 items-center gap-2">
          <input type="checkbox" name="shared" defaultChecked={draft?.shared} className={box} /> {t('Share with the facility')}
        </label>
        <label className="inline-flex min-h-11 items-center gap-2">
          <input type="checkbox" name="pinned" defaultChecked={draft?.pinned} className={box} /> {t('Pin to the menu')}
        </label>
      </span>
    </Form>
  )
}

export function SavedViewsSection({ views, path, t, btn, btnOn }: { views: SavedView[]; path: string; t: (k: string) => string; btn: string; btnOn: string }) {
  const { search } = useLocation()
  const here = viewSearch(search)
  return (
    <section className="flex flex-col gap-2 border-t border-slate-700 pt-2" aria-labelledby="saved-views-heading">
      <h2 id="saved-views-heading" className="text-sm font-semibold text-slate-300">
        {t('Saved views')}
      </h2>
      {views.length ? (
        <ul className="flex flex-col gap-1" data-testid="saved-views">
          {views.map((v) => {
            const current = v.query === here
            return (
              <li key={v.id}>
                <Link to={v.href} className={`${current ? btnOn : btn} w-full justify-start`} aria-current={current ? 'page' : undefined}>
                  <span className="truncate">{v.name}</span>
                  <span className="ml-auto text-xs">{t(v.shared ? 'Shared' : 'Private')}</span>
                </Link>
              </li>
            )
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-400">{t('No saved views on this screen yet.')}</p>
      )}
      <SaveViewForm screen={path} query={here} t={t} btn={btn} />
      <Link to={savedViewsPath(path)} className={btn}>
        {t('Manage views')}
      </Link>
    </section>
  )
}
