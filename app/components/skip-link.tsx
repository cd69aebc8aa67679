/**
 * The page's first focusable element (WCAG 2.4.1, issue 31): "Skip to content", hidden until it has
 * the focus, jumps past the top bar and the side drawer to the page's content (CONTENT_ID, which the
 * shell, kiosk mode and the logged-out pages all render). A plain fragment link: it works without
 * JavaScript; the target takes the focus (tabIndex -1), so the next Tab goes on from there.
 */
import { useT } from '../i18n/t'
import { CONTENT_ID } from './side-drawer'

export function SkipLink() {
  const t = useT()
  return (
    <a href={`#${CONTENT_ID}`} className="sr-only z-50 rounded-md bg-canopy-600 px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:outline focus:outline-2 focus:outline-offset-2 focus:outline-canopy-400">
      {t('Skip to content')}
    </a>
  )
}

/** the skip link's target around a page's content, where no shell renders one */
export function ContentTarget({ children, className = '' }: { children: React.ReactNode; className?: string }) {
  return (
    <div id={CONTENT_ID} tabIndex={-1} className={`outline-none ${className}`}>
      {children}
    </div>
  )
}
