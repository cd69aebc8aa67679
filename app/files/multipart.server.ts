/**
 * Reads a multipart/form-data request body part by part (RFC 7578), for every upload of the product:
 * the files API (POST /files/{org}, what the file drop sends by XMLHttpRequest) and the forms posted
 * without JavaScript (files/form-uploads.server.ts: the edit form, the file screens).
 *
 * The parsing is busboy's (a maintained, streaming parser): it reads the Content-Disposition
 * parameters as quoted strings (RFC 7578 §4.2, RFC 6266 `filename*`), so a file name holding `;`, `=`
 * or quotes arrives whole. Remix's own parser (unstable_parseMultipartFormData) split that header on
 * every `;` and `=` and refused such a post ("The form post could not be read.").
 *
 * Parts are handed to `handler` one at a time, in the order they arrive; a file part's bytes are a
 * stream the handler reads (or leaves: the rest is drained), so nothing is held in memory whole.
 * A handler's error stops the reading and is the error of the call; a body that is not multipart
 * or is cut short is a MultipartError.
 */
import { Readable } from 'node:stream'
import type { ReadableStream as NodeWebStream } from 'node:stream/web'
import busboy from 'busboy'
import { AppError } from '../utils/errors'

/** One part of the body. `filename` is set for a file (the last path segment only). */
export interface Part {
  name: string
  /** the file's name as the browser sent it (never a path); undefined for a plain field */
  filename?: string
  contentType: string
  data: AsyncIterable<Uint8Array>
}

/** What to do with a part: a value to keep in the FormData returned, or nothing. */
export type PartHandler = (part: Part) => Promise<string | File | null | undefined>

/** A body that could not be read as multipart/form-data (the caller says so in its own words). */
export class MultipartError extends Error {}

export interface MultipartLimits {
  /** the most one plain field may hold (bytes); more is a TOO_LARGE AppError */
  fieldBytes?: number
  /** the most parts a body may have */
  parts?: number
}

/** Is this request's body multipart/form-data with a boundary? */
export const isMultipart = (request: Request): boolean => /^multipart\/form-data\s*;(.*;)?\s*boundary=/i.test(request.headers.get('content-type') ?? '')

async function* once(value: string): AsyncIterable<Uint8Array> {
  yield new TextEncoder().encode(value)
}

/** Reads `request`'s multipart body through `handler` (see the module comment). */
export async function parseMultipart(request: Request, handler: PartHandler, limits: MultipartLimits = {}): Promise<FormData> {
  const type = request.headers.get('content-type') ?? ''
  if (!request.body || !isMultipart(request)) throw new MultipartError('The request body is not multipart/form-data.')
  const fieldBytes = limits.fieldBytes ?? 1_000_000
  let parser: busboy.Busboy
  try {
    parser = busboy({ headers: { 'content-type': type }, defParamCharset: 'utf8', preservePath: false, limits: { fieldSize: fieldBytes, parts: limits.parts ?? 1000, fieldNameSize: 200 } })
  } catch (e) {
    throw new MultipartError((e as Error).message)
  }
  const source = Readable.fromWeb(request.body as unknown as NodeWebStream<Uint8Array>)
  const form = new FormData()
  return new Promise<FormData>((resolve, reject) => {
    let failed = false
    let chain: Promise<void> = Promise.resolve()
    const fail = (e: unknown) => {
      if (failed) return
      failed = true
      source.unpipe(parser)
      source.destroy()
      reject(e)
    }
    const run = (part: Part, stream?: Readable) => {
      chain = chain
        .then(async () => {
          if (failed) return void stream?.resume()
          const value = await handler(part)
          stream?.resume() // whatever the handler left unread
          if (value !== undefined && value !== null) form.append(part.name, value)
        })
        .catch((e) => {
          stream?.resume()
          fail(e)
        })
    }
    parser.on('file', (name, stream, info) => {
      // a body cut short destroys the part's stream with the parser's error: the handler sees it when
      // it reads (or has already stopped); it must not also be an uncaught 'error' event
      stream.on('error', () => {})
      run({ name, filename: info.filename ?? '', contentType: info.mimeType, data: stream }, stream)
    })
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new AppError('TOO_LARGE', 'A field of this form post is too large.'))
      run({ name, contentType: info.mimeType, data: once(value) })
    })
    parser.on('partsLimit', () => fail(new AppError('BAD_INPUT', 'This form post has too many parts.')))
    parser.on('error', (e) => fail(new MultipartError((e as Error).message)))
    source.on('error', (e) => fail(new MultipartError((e as Error).message)))
    parser.on('close', () => {
      chain.then(() => {
        if (!failed) resolve(form)
      }, fail)
    })
    source.pipe(parser)
  })
}
