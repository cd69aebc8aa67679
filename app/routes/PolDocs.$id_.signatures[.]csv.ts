/** /PolDocs/{id}/signatures.csv: who has and has not acknowledged a policy, as CSV for an inspection (a resource route). */
import type { LoaderFunctionArgs } from '@remix-run/node'
import { signaturesLoader } from '../areas/documents/policy-routes.server'

export const loader = (args: LoaderFunctionArgs) => {
  const url = new URL(args.request.url)
  url.searchParams.set('format', 'csv')
  return signaturesLoader({ ...args, request: new Request(url, args.request) })
}
