/** Domain errors with a stable code; the API and the UI map them to HTTP statuses. */
export type ErrorCode = 'BAD_INPUT' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'TOO_LARGE' | 'UNSUPPORTED' | 'TOO_MANY' | 'UNAVAILABLE' | 'NOT_ALLOWED' | 'DEVICE_TIMEOUT'

export const STATUS_OF: Record<ErrorCode, number> = {
  BAD_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  UNSUPPORTED: 415,
  TOO_MANY: 429,
  UNAVAILABLE: 503,
  /** the address exists but not for this HTTP method */
  NOT_ALLOWED: 405,
  /** a device (scale, scanner) did not answer in time */
  DEVICE_TIMEOUT: 504,
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'AppError'
  }
  get status() {
    return STATUS_OF[this.code]
  }
}

/** Is this one of our domain errors? (The process loads this module once: decision 022.) */
export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError
}

/** The HTTP status of a domain error (from its code). */
export const statusOf = (e: AppError): number => STATUS_OF[e.code]

/** For loaders: a domain error becomes the error page of its status (404, 403, ...); anything else is rethrown. */
export function refusedAsPage(e: unknown): never {
  if (isAppError(e)) throw new Response(e.message, { status: statusOf(e), statusText: e.message })
  throw e
}

export const badInput = (m: string, d?: unknown) => new AppError('BAD_INPUT', m, d)
export const notFound = (m: string) => new AppError('NOT_FOUND', m)
export const conflict = (m: string, d?: unknown) => new AppError('CONFLICT', m, d)
export const forbidden = (m: string) => new AppError('FORBIDDEN', m)
