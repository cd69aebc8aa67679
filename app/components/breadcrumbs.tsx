/**
 * Breadcrumbs on every screen and record page of the drawer (issue 29 item 4; decision 061):
 * module › screen › record (breadcrumb-trail.ts). A record page's route may name its record:
 * `export const handle = { crumb: (data) => data.name }`. Server-rendered: no JavaScript needed.
 */
import { Link, useLocation, useMatches } from '@remix-run/react'
import { useT } from '../i18n/t'
import { breadcrumbTrail } from './breadcrumb-trail'
import type { MenuGroupLike } from './menu-filter'

type CrumbHandle = { crumb?: (data: unknown) => string | null | undefined }

export function Breadcrumbs({ menu }: { menu: MenuGroupLike[] }) {
  const t = useT()
  const { pathname } = useLocation()
  const matches = useMatches()
  const leaf = matches[matches.length - 1]
  const name = (leaf?.handle as CrumbHandle | undefined)?.crumb?.(leaf.data) ?? null
  const trail = breadcrumbTrail(menu, pathname, name)
  if (!trail.length) return null
  return (
    <nav aria-label={t('Breadcrumb')} className="px-4 pt-2 text-sm text-slate-400">
      <ol className="flex flex-wrap items-center gap-x-1">
        {trail.map((c, i) => (
          <li key={i} className="flex min-w-0 items-center gap-x-1">
            {i > 0 ? (
              <span aria-hidden="true" className="px-1">
                ›
              </span>
            ) : null}
            {c.href ? (
              <Link to={c.href} className="inline-flex min-h-11 items-center text-canopy-400 underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-canopy-400">
                {t(c.label)}
              </Link>
            ) : i === trail.length - 1 ? (
              <span aria-current="page" className="truncate font-semibold text-slate-200">
                {t(c.label)}
              </span>
            ) : (
              <span>{t(c.label)}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  )
}
