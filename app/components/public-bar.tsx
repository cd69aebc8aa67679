/**
 * The top bar when nobody is signed in (SPEC §2.1: "a Login button when logged out"; decision 061):
 * the title with the version and Login. Login is a link styled as a button: it goes to the login
 * view (so it works without JavaScript), and the login form's own Login stays the one button of
 * that name.
 */
import { Link } from '@remix-run/react'
import { useT } from '../i18n/t'
import { APP_NAME, APP_VERSION } from '../version'

export function PublicBar() {
  const t = useT()
  return (
    <header className="flex flex-wrap items-center gap-2 border-b border-slate-800 bg-slate-900 px-3 py-1">
      <Link to="/Welcome" className="mr-auto px-2 text-lg font-semibold text-canopy-400">
        {APP_NAME} {APP_VERSION}
      </Link>
      <Link to="/Welcome" className="flex min-h-11 items-center rounded-md bg-canopy-600 px-4 font-semibold text-white hover:bg-canopy-500 focus-visible:outline focus-visible:outline-2 focus-visible:outline-canopy-400">
        {t('Login')}
      </Link>
    </header>
  )
}
