import { redirect } from '@remix-run/node'

/** SPEC §2.2: / redirects to /Welcome. */
export const loader = () => redirect('/Welcome')
