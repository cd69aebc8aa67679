/**
 * Where an organisation's files are kept (issue 7 item 3, SPEC §7 files API), behind one interface
 * so an S3-compatible store can be added later: `FileStorage` (put, get, stat, list, remove), and the
 * local-disk implementation under DATA_DIR/files/{org}/{subdir?}/{name} that uploads
 * (store.server.ts), downloads and listings (routes/getfiles.*) go through.
 *
 * Path safety lives here and only here (`safeParts`, `LocalFileStorage.resolve`): the organisation,
 * sub-folder and file name must each match a strict pattern (letters, digits, `_`, `-`, and dots in
 * a file name but never `..`; so no `/` in a name, no `\`, NUL, `%` (an encoded slash or dot, once
 * or twice), no absolute path), and the real path (fs.realpath, symlinks followed) must stay inside
 * the organisation's own real folder: a symlink placed inside it that points elsewhere is refused.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { AppError } from '../utils/errors'

/** Organisation keys and stored file names: a letter or digit first, then word characters, dots, dashes. */
export const SAFE_NAME = /^[A-Za-z0-9][\w.-]{0,120}$/
/** A sub-folder: up to three plain segments (no dots at all, so never `..`). */
export const SAFE_SUBDIR = /^[A-Za-z0-9][\w-]{0,60}(\/[A-Za-z0-9][\w-]{0,60}){0,2}$/

/** What a listing or a stat says of one file. */
export interface FileEntry {
  name: string
  size: number
  /** the content type it is served with (by extension, rules of getfiles) */
  type: string
  /** last modified, ISO 8601 */
  modified: string
}

export interface FileBody {
  body: ReadableStream<Uint8Array>
  size: number
  mtime: Date
}

/** Bytes to store: a temp file already checked (moved, not copied, when it can be) or a stream. */
export type PutSource = { tmpFile: string } | { stream: AsyncIterable<Uint8Array> }

export interface FileStorage {
  /** Stores a file under its name, replacing one of that name. */
  put(org: string, subdir: string | null, name: string, from: PutSource): Promise<void>
  /** A stored file's bytes, size and modification time; null when there is none. */
  get(org: string, subdir: string | null, name: string): Promise<FileBody | null>
  /** A stored file's size and modification time without its bytes; null when there is none. */
  stat(org: string, subdir: string | null, name: string): Promise<Omit<FileBody, 'body'> | null>
  /** The files of one folder, not recursing: no folders, hidden or temp files, nothing getfiles would not serve. */
  list(org: string, subdir: string | null): Promise<FileEntry[]>
  /** Removes a file; false when there was none. */
  remove(org: string, subdir: string | null, name: string): Promise<boolean>
}

/** The content type each servable extension is served with; anything else is never served or listed. */
export const SERVED_TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.svg': 'image/svg+xml', '.pdf': 'application/pdf', '.webp': 'image/webp',
  '.csv': 'text/plain; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
}
export const servedType = (name: string): string | undefined => SERVED_TYPES[path.extname(name).toLowerCase()]

const refuse = (message: string) => new AppError('BAD_INPUT', message)

/**
 * Checks an organisation, sub-folder and (optional) file name by pattern alone; throws BAD_INPUT.
 * `null`/'' subdir is the organisation's top folder.
 */
export function safeParts(org: string, subdir?: string | null, name?: string): void {
  if (typeof org !== 'string' || !SAFE_NAME.test(org) || org.includes('..')) throw refuse('That is not an organisation.')
  if (subdir && !SAFE_SUBDIR.test(subdir)) throw refuse('That is not a folder name: use letters, digits, - and _, up to three levels.')
  if (name !== undefined && (!SAFE_NAME.test(name) || name.includes('..'))) throw refuse('That is not a file name.')
}

const isMissing = (e: unknown) => ['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException)?.code ?? '')

/** The local disk: DATA_DIR/files/{org}/…; temp files for streamed puts under DATA_DIR/files/.tmp. */
export class LocalFileStorage implements FileStorage {
  readonly root: string
  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'files')
  }

  /** The organisation's folder as written (it may not exist yet). */
  orgDir(org: string): string {
    safeParts(org)
    return path.join(this.root, org)
  }

  /**
   * The path of a folder or file after the pattern checks, and a check that what exists of it
   * resolves (symlinks followed) inside the organisation's real folder. A missing tail is fine
   * (a file not yet written): the deepest existing part is what is checked.
   */
  async resolve(org: string, subdir: string | null | undefined, name?: string): Promise<string> {
    safeParts(org, subdir, name)
    const orgDir = path.join(this.root, org)
    const target = path.join(orgDir, subdir || '', name ?? '')
    if (target !== orgDir && !target.startsWith(orgDir + path.sep)) throw refuse('That is not a file name.')
    const realRoot = await fsp.realpath(this.root).catch(() => path.resolve(this.root))
    // the organisation's folder itself must be a plain folder of the files root (not a link elsewhere)
    const realOrg = await realOrNull(orgDir)
    if (realOrg !== null && realOrg !== path.join(realRoot, org)) throw new AppError('FORBIDDEN', 'That file is outside the organisation’s folder.')
    const inside = realOrg ?? path.join(realRoot, org)
    // the deepest part of the path that exists, resolved, must stay inside it
    let probe = target
    for (;;) {
      const real = await realOrNull(probe)
      if (real !== null) {
        if (real !== inside && !real.startsWith(inside + path.sep)) throw new AppError('FORBIDDEN', 'That file is outside the organisation’s folder.')
        break
      }
      if (probe === orgDir) break
      probe = path.dirname(probe)
    }
    return target
  }

  async put(org: string, subdir: string | null, name: string, from: PutSource): Promise<void> {
    const dest = await this.resolve(org, subdir, name)
    await fsp.mkdir(path.dirname(dest), { recursive: true })
    await this.resolve(org, subdir, name) // again, now the folders exist: none of them may be a link out
    if ('tmpFile' in from) {
      await fsp.rename(from.tmpFile, dest)
      return
    }
    const tmpDir = path.join(this.root, '.tmp')
    await fsp.mkdir(tmpDir, { recursive: true })
    const tmp = path.join(tmpDir, `${crypto.randomBytes(12).toString('hex')}.part`)
    const file = await fsp.open(tmp, 'wx', 0o600)
    try {
      for await (const chunk of from.stream) await file.write(chunk)
      await file.sync()
      await file.close()
      await fsp.rename(tmp, dest)
    } catch (e) {
      await file.close().catch(() => {})
      await fsp.rm(tmp, { force: true })
      throw e
    }
  }

  async stat(org: string, subdir: string | null, name: string): Promise<Omit<FileBody, 'body'> | null> {
    const p = await this.resolve(org, subdir, name)
    try {
      const s = await fsp.stat(p)
      return s.isFile() ? { size: s.size, mtime: s.mtime } : null
    } catch (e) {
      if (isMissing(e)) return null
      throw e
    }
  }

  async get(org: string, subdir: string | null, name: string): Promise<FileBody | null> {
    const p = await this.resolve(org, subdir, name)
    let handle: fsp.FileHandle
    try {
      // the real path was checked; open it without following a link swapped in since
      handle = await fsp.open(await fsp.realpath(p), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
    } catch (e) {
      if (isMissing(e)) return null
      throw e
    }
    const s = await handle.stat()
    if (!s.isFile()) {
      await handle.close()
      return null
    }
    const body = createReadableStreamFromReadable(handle.createReadStream()) as ReadableStream<Uint8Array>
    return { body, size: s.size, mtime: s.mtime }
  }

  async list(org: string, subdir: string | null): Promise<FileEntry[]> {
    const dir = await this.resolve(org, subdir)
    let dirents: fs.Dirent[]
    try {
      dirents = await fsp.readdir(dir, { withFileTypes: true })
    } catch (e) {
      if (isMissing(e)) return []
      throw e
    }
    const out: FileEntry[] = []
    for (const d of dirents) {
      // plain files only (no folders, no links), and only names getfiles would serve
      if (!d.isFile() || !SAFE_NAME.test(d.name) || d.name.includes('..')) continue
      const type = servedType(d.name)
      if (!type) continue
      try {
        const s = await fsp.lstat(path.join(dir, d.name))
        out.push({ name: d.name, size: s.size, type, modified: s.mtime.toISOString() })
      } catch {
        // removed meanwhile
      }
    }
    return out.sort((a, b) => a.name.localeCompare(b.name))
  }

  async remove(org: string, subdir: string | null, name: string): Promise<boolean> {
    const p = await this.resolve(org, subdir, name)
    try {
      const s = await fsp.lstat(p)
      if (s.isDirectory()) return false
      await fsp.rm(p)
      return true
    } catch (e) {
      if (isMissing(e)) return false
      throw e
    }
  }
}

async function realOrNull(p: string): Promise<string | null> {
  try {
    return await fsp.realpath(p)
  } catch (e) {
    if (isMissing(e)) return null
    throw e
  }
}

const stores = new Map<string, FileStorage>()
/** The storage for a data folder (the local disk; the one place another kind would be chosen). */
export function fileStorage(dataDir: string): FileStorage {
  let s = stores.get(dataDir)
  if (!s) stores.set(dataDir, (s = new LocalFileStorage(dataDir)))
  return s
}
