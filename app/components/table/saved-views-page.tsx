/**
 * /saved-views?screen=…: a table screen's saved views this user sees, each with what they may do
 * with it (decision 073): open, pin/unpin (anyone who sees it), and for its owner (a shared one:
 * also an admin of the facility) rename, share/unshare and delete. Plain forms: no JavaScript needed.
 * A refused save from the toolbar lands here with its message and the form as it was posted.
 */
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import type { SavedView } from '../../screens/saved-views.server'
import type { SavedViewsAnswer, SavedViewsPage } from '../../screens/saved-views-route.server'
import { useT } from '../../i18n/t'
import { Notice } from '../ui'
import { savedViewsPath, SaveViewForm } from './saved-views-menu'
import { btn } from './table-toolbar'

const danger = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-md bg-red-700 px-3 text-sm text-white hover:bg-red-600'

function Hidden({ screen, id, intent }: { screen: string; id: string; intent: string }) {
  return (
    <>
      <input type="hidden" name="screen" value={screen} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="intent" value={intent} />
    </>
  )
}

function ViewRow({ v, screen, t }: { v: SavedView; screen: string; t: (k: string) => string }) {
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-700 p-3" data-testid="saved-view">
      <div className="flex flex-wrap items-center gap-2">
        <Link to={v.href} className="inline-flex min-h-11 items-center text-lg font-semibold text-canopy-400 underline">
          {v.name}
        </Link>
        <span className="text-sm text-slate-300">
          {t(v.shared ? 'Shared with the facility' : 'Private')}
          {v.shared && v.mine ? ` · ${t('yours')}` : ''}
          {v.pinned ? ` · ${t('Pinned')}` : ''}
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Form method="post" action={savedViewsPath(screen)}>
          <Hidden screen={screen} id={v.id} intent={v.pinned ? 'unpin' : 'pin'} />
          <button type="submit" className={btn} aria-label={`${t(v.pinned ? 'Unpin' : 'Pin to the menu')}: ${v.name}`}>
            {t(v.pinned ? 'Unpin' : 'Pin to the menu')}
          </button>
        </Form>
        {v.manage ? (
          <>
            {v.shared || v.mine ? (
              <Form method="post" action={savedViewsPath(screen)}>
                <Hidden screen={screen} id={v.id} intent={v.shared ? 'unshare' : 'share'} />
                <button type="submit" className={btn} aria-label={`${t(v.shared ? 'Stop sharing' : 'Share with the facility')}: ${v.name}`}>
                  {t(v.shared ? 'Stop sharing' : 'Share with the facility')}
                </button>
              </Form>
            ) : null}
            <Form method="post" action={savedViewsPath(screen)} className="flex items-center gap-1">
              <Hidden screen={screen} id={v.id} intent="rename" />
              <label htmlFor={`rename-${v.id}`} className="sr-only">{`${t('New name for')} ${v.name}`}</label>
              <input id={`rename-${v.id}`} name="name" defaultValue={v.name} maxLength={200} required className="min-h-11 w-48 rounded-md border border-slate-600 bg-slate-950 px-2 text-sm text-slate-100" />
              <button type="submit" className={btn} aria-label={`${t('Rename')}: ${v.name}`}>
                {t('Rename')}
              </button>
            </Form>
            <Form method="post" action={savedViewsPath(screen)}>
              <Hidden screen={screen} id={v.id} intent="delete" />
              <button type="submit" className={danger} aria-label={`${t('Delete')}: ${v.name}`}>
                {t('Delete')}
              </button>
            </Form>
          </>
        ) : null}
      </div>
    </li>
  )
}

export function SavedViewsView() {
  const t = useT()
  const data = useLoaderData<SavedViewsPage>()
  const answer = useActionData<SavedViewsAnswer>()
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-semibold">
        {t('Saved views')}: {t(data.title)}
      </h1>
      {answer?.error ? <Notice tone="error">{answer.error}</Notice> : null}
      {data.done && !answer ? (
        <p role="status" className="rounded-md border border-canopy-500 bg-canopy-900 px-3 py-2 text-canopy-50" data-testid="action-done">
          {data.done}
        </p>
      ) : null}
      {answer?.draft ? (
        <div className="rounded-md border border-slate-700 p-3">
          <SaveViewForm screen={data.screen} query={answer.draft.query} t={t} draft={answer.draft} btn={btn} idPrefix="save-again" />
        </div>
      ) : null}
      {data.views.length ? (
        <ul className="flex flex-col gap-2">
          {data.views.map((v) => (
            <ViewRow key={v.id} v={v} screen={data.screen} t={t} />
          ))}
        </ul>
      ) : (
        <p className="text-slate-300">{t('No saved views on this screen yet.')}</p>
      )}
      <Link to={data.screen} className={`${btn} self-start`}>
        {t('Back to the table')}
      </Link>
    </main>
  )
}
