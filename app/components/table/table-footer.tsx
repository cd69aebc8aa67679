/** The table screen's footer (SPEC §2.5): rows per page 10/20/30/40, item count, pagination. All links. */
import { Link } from '@remix-run/react'
import type { TableData } from '../../screens/table-page.server'
import { PAGE_SIZES, type ListQuery } from '../../screens/table-url'
import { btn, btnOn } from './table-toolbar'

export function TableFooter({ data, to, t }: { data: TableData; to: (c: ListQuery & Record<string, unknown>) => string; t: (k: string) => string }) {
  const first = data.total ? (data.page - 1) * data.size + 1 : 0
  const last = Math.min(data.total, data.page * data.size)
  const page = (p: number) => to({ page: p === 1 ? undefined : p })
  // Next and Previous continue from the rows shown (a keyset cursor: as fast on page 500 as on page 2); page 1 needs none
  const next = to({ page: data.page + 1, ...(data.next ? { after: data.next } : {}) })
  const prev = data.page === 2 || !data.prev ? page(data.page - 1) : to({ page: data.page - 1, before: data.prev })
  // past the count cap we do not know the total (the planner's estimate can be far off): say so, and no jump to a last page
  const total = data.exact ? data.total.toLocaleString('en-US') : `${t('more than')} ${data.countCap.toLocaleString('en-US')}`
  const more = data.exact ? data.page < data.pages : data.rows.length === data.size
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <span className="inline-flex items-center gap-1" role="group" aria-label={t('Rows per page')}>
        <span className="mr-1 text-slate-400">{t('Rows per page')}</span>
        {PAGE_SIZES.map((s) => (
          <Link key={s} to={to({ size: s })} className={data.size === s ? btnOn : btn} aria-current={data.size === s ? 'true' : undefined} preventScrollReset>
            {s}
          </Link>
        ))}
      </span>
      <span aria-live="polite" className="text-slate-300">
        {data.total ? `${first}–${last} ${t('of')} ${total} ${t(data.total === 1 ? 'item' : 'items')}` : `0 ${t('items')}`}
      </span>
      {data.page > 1 || more ? (
        <nav aria-label={t('Pages')} className="inline-flex items-center gap-1">
          {data.page > 1 ? (
            <>
              <Link to={page(1)} className={btn} aria-label={t('First page')}>
                «
              </Link>
              <Link to={prev} className={btn} rel="prev">
                {t('Previous')}
              </Link>
            </>
          ) : null}
          <span className="px-2">
            {t('Page')} {data.page}
            {data.exact ? ` ${t('of')} ${data.pages}` : ''}
          </span>
          {more ? (
            <>
              <Link to={next} className={btn} rel="next">
                {t('Next')}
              </Link>
              {data.exact ? (
                <Link to={page(data.pages)} className={btn} aria-label={t('Last page')}>
                  »
                </Link>
              ) : null}
            </>
          ) : null}
        </nav>
      ) : null}
    </div>
  )
}
