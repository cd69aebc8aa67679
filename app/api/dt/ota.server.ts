/**
 * OTA deletes of SPEC §7 (super only; firmware is platform data, the /SupFirmwares screen's):
 * - DELETE /dt/v1/ota/{id}: the firmware record (`ota`, platform organisation) through the one
 *   write path (row flags, audit row, change event).
 * - DELETE /ota/{name}: the firmware file `DATA_DIR/ota/{name}`. The name is one plain file name
 *   (no folder, no `..`, no leading dot); the path is checked to stay inside the folder and only a
 *   regular file is removed (never a folder or a symlink). Audited as collection `ota_files`.
 * The record and the file are separate calls, as SPEC lists them: a client removes both.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import type { AppLoadContext } from '@remix-run/node'
import { deleteRecord } from '../../records/write.server'
import { PLATFORM_ORG } from '../../route-map'
import { AppError, forbidden, notFound } from '../../utils/errors'
import type { ApiCaller } from '../../auth/api-caller.server'
import { writerOf } from './records.server'
import { checkId } from '../../utils/ids'

export const otaFolder = (dataDir: string) => path.join(dataDir, 'ota')
const FILE_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

function requireSuper(c: ApiCaller) {
  if (c.user.role !== 'super') throw forbidden('Only super may delete firmware.')
}

/** DELETE /dt/v1/ota/{id}; null for any other call on ota (the generic calls answer those). */
export async function otaCall(context: AppLoadContext, c: ApiCaller, method: string, id: string | null): Promise<Response | null> {
  if (method !== 'DELETE' || !id) return null
  requireSuper(c)
  return Response.json(await deleteRecord(context, writerOf(c), 'ota', checkId(id)))
}

/** DELETE /ota/{name}: removes one firmware file; answers { deleted, size }. */
export async function deleteOtaFile(context: AppLoadContext, c: ApiCaller, name: string): Promise<Response> {
  requireSuper(c)
  if (!FILE_RE.test(name) || name.includes('..')) throw new AppError('BAD_INPUT', 'name: a firmware file name is letters, digits, ".", "-" and "_", without a folder', { field: 'name' })
  const root = otaFolder(context.env.DATA_DIR)
  const file = path.resolve(root, name)
  if (path.dirname(file) !== path.resolve(root)) throw new AppError('BAD_INPUT', 'name: a firmware file name has no folder in it', { field: 'name' })
  const st = await fs.lstat(file).catch(() => null)
  if (!st || !st.isFile()) throw notFound('There is no firmware file by that name.')
  await context.database.store.audited(c.actor, { org: PLATFORM_ORG, collection: 'ota_files', id: name, action: 'delete', before: { name, size: st.size }, after: null }, () => fs.unlink(file))
  return Response.json({ deleted: name, size: st.size })
}
