/** /Loggedout (SPEC §2.2, public): logout shows the login view (SPEC §4), so an old link to it lands there. */
import { redirect } from '@remix-run/node'

export const loader = () => redirect('/Welcome?msg=loggedout')
