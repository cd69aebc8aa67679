/**
 * The shell's banner for a facility whose METRC key stopped working (issue 9), shown to admins and
 * super users on every page: since when (the facility's time zone), METRC's message, and a link to
 * the Metrc screen whose panel takes a new key. Rendered on the server: no JavaScript needed.
 */
import type { MetrcKeyBanner as Banner } from '../metrc/sync/banner.server'
import { useT } from '../i18n/t'

export function MetrcKeyBanner({ b }: { b: Banner }) {
  const t = useT()
  return (
    <div role="alert" data-testid="metrc-key-banner" className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-red-800 bg-red-950 px-4 py-2 text-sm text-red-100">
      <span>
        <strong>{t('METRC stopped accepting this facility’s API key')}</strong> {t('since')} <time>{b.since}</time> ({b.timeZone}).
      </span>
      {b.error ? (
        <span>
          {t('METRC said:')} <q>{b.error}</q>
        </span>
      ) : null}
      {b.href ? (
        <a href={b.href} className="flex min-h-11 items-center font-semibold underline">
          {t('Enter a new METRC key')}
        </a>
      ) : (
        <span>{t('An admin must enter a new key.')}</span>
      )}
    </div>
  )
}
