import { Link } from '@remix-run/react'
import { Page } from '../components/ui'

export default function NoDeepLink() {
  return (
    <Page title="This link is not for the web console">
      <p className="text-slate-300">The link you followed belongs to another Canopy app (its scope is not the web console). Open it on the device it was made for, or go to the start page.</p>
      <Link to="/Welcome" className="text-canopy-400 underline">
        Go to the start page
      </Link>
    </Page>
  )
}
