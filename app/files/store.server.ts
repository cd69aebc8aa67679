/**
 * An organisation's files (SPEC §7 files API, §2.6 file drop): DATA_DIR/files/{org}/{subdir?}/{name}.
 * An upload is streamed to a temp file under DATA_DIR/files/.tmp (never more than the size limit is
 * written or held in memory), its first bytes are checked against its extension, and only then is it
 * renamed into place under a generated name: a crash or a refusal never leaves a file, whole or half,
 * under a real name. The client's file name only gives the extension and a readable slug; it never
 * names the path. The stored reference is `/getfiles/{org}/{name}` (plus `?subdir=`), what getfiles
 * serves and what a fileDND field keeps. Files are placed and removed through the storage interface
 * (storage.server.ts), which also holds the path-safety checks.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { Env } from '../config/env.server'
import { AppError } from '../utils/errors'
import { ALLOWED, FILE_MSG, extOf, refuseName, type FileKind } from './rules'
import { fileStorage, safeParts } from './storage.server'

export { SAFE_NAME, SAFE_SUBDIR } from './storage.server'
/** Bytes kept from the start of a file to check what it really is. */
const HEAD = 4096

export const maxUploadBytes = (env: Pick<Env, 'MAX_UPLOAD_MB'>): number => Math.floor(env.MAX_UPLOAD_MB * 1_048_576)
export const filesRoot = (dataDir: string) => path.join(dataDir, 'files')
export const tempDir = (dataDir: string) => path.join(filesRoot(dataDir), '.tmp')

export interface StoredFile {
  /** the generated file name */
  name: string
  /** the reference a record keeps: /getfiles/{org}/{name}[?subdir=] */
  path: string
  size: number
  /** the content type it is served with */
  type: string
  /** the name the file had on the user's device (shown, never used as a path) */
  original: string
}

/** An upload written to its temp file and not yet checked or placed. */
export interface Staged {
  original: string
  ext: string
  tmp: string
  size: number
  head: Buffer
}

/** The folder of an organisation's files (and sub-folder), or a BAD_INPUT error for a name that could leave it. */
export function folderOf(dataDir: string, org: string, subdir?: string | null): string {
  safeParts(org, subdir) // the patterns of storage.server.ts; the real-path check is made when a file is placed
  return path.join(filesRoot(dataDir), org, subdir || '')
}

export function referenceOf(org: string, name: string, subdir?: string | null): string {
  return `/getfiles/${encodeURIComponent(org)}/${encodeURIComponent(name)}${subdir ? `?subdir=${encodeURIComponent(subdir)}` : ''}`
}

/** A new file name: a slug of the original (readable in lists), a random part, the allowed extension. */
export function generatedName(original: string, ext: string): string {
  const base = (original.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '')
  const slug =
    base
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'file'
  return `${slug}-${crypto.randomBytes(6).toString('hex')}.${ext}`
}

/** What the first bytes say the file is (null: none of the binary kinds we take). */
export function sniff(head: Buffer): Exclude<FileKind, 'text'> | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg'
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'webp'
  if (head.length >= 5 && head.toString('latin1', 0, 5) === '%PDF-') return 'pdf'
  return null
}

/**
 * Plain text: no NUL or other control bytes but tab, newlines and form feed (any 8-bit encoding: a
 * spreadsheet's CSV is not always UTF-8), and not markup a browser would run.
 */
export function looksLikeText(head: Buffer): boolean {
  const s = head.toString('latin1')
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(s)) return false
  return !/^(\xef\xbb\xbf)?\s*<(!doctype|html|head|body|script|svg|iframe|\?xml)\b/i.test(s)
}

/**
 * Streams one upload to a temp file, refusing a name that is not allowed before reading a byte and a
 * body over `limit` bytes (never writing past it). `drain`: keep reading a too-large part to its end
 * without writing it, so a form's other fields can still be read; otherwise stop at once.
 * Throws AppError (UNSUPPORTED 415, TOO_LARGE 413, BAD_INPUT 400); the temp file is gone then.
 */
export async function stageUpload(dataDir: string, original: string, data: AsyncIterable<Uint8Array>, limit: number, opts: { drain?: boolean } = {}): Promise<Staged> {
  const refused = refuseName(original)
  if (refused) {
    if (opts.drain) for await (const _ of data); // drain the rest unread
    throw new AppError('UNSUPPORTED', refused)
  }
  await fsp.mkdir(tempDir(dataDir), { recursive: true })
  const tmp = path.join(tempDir(dataDir), `${crypto.randomBytes(12).toString('hex')}.part`)
  const file = await fsp.open(tmp, 'wx', 0o600)
  let size = 0
  let over = false
  const head: Buffer[] = []
  let headLen = 0
  try {
    for await (const chunk of data) {
      size += chunk.byteLength
      if (size > limit) {
        over = true
        if (opts.drain) continue
        break
      }
      if (headLen < HEAD) {
        const take = Buffer.from(chunk.subarray(0, HEAD - headLen))
        head.push(take)
        headLen += take.length
      }
      await file.write(chunk)
    }
    if (over) throw new AppError('TOO_LARGE', FILE_MSG.tooBig(original, limit))
    if (size === 0) throw new AppError('BAD_INPUT', FILE_MSG.empty(original))
    await file.sync()
  } catch (e) {
    await file.close().catch(() => {})
    await fsp.rm(tmp, { force: true })
    throw e
  }
  await file.close()
  return { original, ext: extOf(original), tmp, size, head: Buffer.concat(head) }
}

/** Checks a staged upload's first bytes against its extension and renames it into the organisation's folder. */
export async function commitUpload(dataDir: string, org: string, staged: Staged, subdir?: string | null): Promise<StoredFile> {
  try {
    folderOf(dataDir, org, subdir)
    const allowed = ALLOWED[staged.ext]
    if (!allowed) throw new AppError('UNSUPPORTED', FILE_MSG.type(staged.original))
    const ok = allowed.kind === 'text' ? sniff(staged.head) === null && looksLikeText(staged.head) : sniff(staged.head) === allowed.kind
    if (!ok) throw new AppError('UNSUPPORTED', FILE_MSG.mismatch(staged.original, allowed.what))
    const name = generatedName(staged.original, staged.ext)
    await fileStorage(dataDir).put(org, subdir ?? null, name, { tmpFile: staged.tmp })
    return { name, path: referenceOf(org, name, subdir), size: staged.size, type: allowed.type, original: staged.original }
  } catch (e) {
    await discardStaged(staged)
    throw e
  }
}

/** Stages and commits in one go: what the upload route does per file. */
export async function saveUpload(dataDir: string, org: string, original: string, data: AsyncIterable<Uint8Array>, limit: number, subdir?: string | null): Promise<StoredFile> {
  folderOf(dataDir, org, subdir) // a bad organisation or folder is refused before anything is read
  return commitUpload(dataDir, org, await stageUpload(dataDir, original, data, limit), subdir)
}

/** Removes a staged upload's temp file (nothing when it was committed). */
export async function discardStaged(staged: Pick<Staged, 'tmp'>): Promise<void> {
  await fsp.rm(staged.tmp, { force: true })
}

/** Removes a stored file by its reference (an upload refused half-way through a request). */
export async function removeStored(dataDir: string, org: string, file: Pick<StoredFile, 'name'>, subdir?: string | null): Promise<void> {
  await fileStorage(dataDir).remove(org, subdir ?? null, file.name)
}

/** Temp files older than `ageMs` (left by a crash): removed. Returns how many. */
export function sweepTemp(dataDir: string, ageMs = 3_600_000): number {
  let n = 0
  let names: string[] = []
  try {
    names = fs.readdirSync(tempDir(dataDir))
  } catch {
    return 0
  }
  for (const f of names) {
    const p = path.join(tempDir(dataDir), f)
    try {
      if (Date.now() - fs.statSync(p).mtimeMs > ageMs) {
        fs.rmSync(p, { force: true })
        n++
      }
    } catch {
      // gone already
    }
  }
  return n
}
