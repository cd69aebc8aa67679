/** GET /dt/v1/{table}?{filters} | ?count, POST /dt/v1/{table} (SPEC §7): app/api/dt/dispatch.server.ts */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { dtCall } from '../api/dt/dispatch.server'

export const loader = ({ request, context, params }: LoaderFunctionArgs) => dtCall(request, context, params.table, null)
export const action = ({ request, context, params }: ActionFunctionArgs) => dtCall(request, context, params.table, null)
