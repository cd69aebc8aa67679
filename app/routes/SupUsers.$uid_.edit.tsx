/** /SupUsers/{id}/edit: the generic edit address of a user goes to the user form (rights as a grid, never JSON text). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { redirect } from '@remix-run/node'

export const loader = ({ params }: LoaderFunctionArgs) => redirect(`/SupUsers/${encodeURIComponent(params.uid ?? '')}`)
