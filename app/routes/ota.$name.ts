/** DELETE /ota/{name} (SPEC §7): a firmware file, super only (app/api/dt/ota.server.ts). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { requireApiCaller } from '../auth/api-caller.server'
import { deleteOtaFile } from '../api/dt/ota.server'
import { api } from '../api/respond.server'
import { AppError } from '../utils/errors'

export const loader = ({ context }: LoaderFunctionArgs) => api(async () => {
  throw new AppError('NOT_ALLOWED', 'GET is not allowed on /ota/{name}; only DELETE')
}, context.logger)

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  api(async () => {
    const caller = await requireApiCaller(request, context)
    if (request.method.toUpperCase() !== 'DELETE') throw new AppError('NOT_ALLOWED', `${request.method} is not allowed on /ota/{name}; only DELETE`)
    return deleteOtaFile(context, caller, params.name ?? '')
  }, context.logger)
