/** An answer other than 200: a status, METRC's `Message`, per-row 400s, a 429's Retry-After. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly rows?: Array<{ row: number; message: string }>,
    /** for a 429: seconds to wait */
    readonly retryAfterS?: number,
  ) {
    super(message)
  }
}
