import { Link } from '@remix-run/react'
import { Page } from '../components/ui'

export default function Loggedout() {
  return (
    <Page title="You have been logged out">
      <p className="text-slate-300">Your session has ended on this device.</p>
      <Link to="/Welcome" className="text-canopy-400 underline">
        Login again
      </Link>
    </Page>
  )
}
