/**
 * Release notes (issue 27 item 5): how versions compare, shared by the server and the tests.
 * A version is dotted numbers ("4.1.0", "4.10"); a missing part counts as 0, anything after a
 * number's digits ("4.1.0-beta") is ignored for ordering.
 */
export const NOTES = 'crm_release_notes'
export const NOTES_SCREEN = '/CrmReleaseNotes'
export const WHATS_NEW_PATH = '/ReleaseNotes'

const parts = (v: string) => String(v ?? '').trim().split('.').map((p) => Number.parseInt(p, 10) || 0)

/** < 0 when a is older than b, 0 when the same version, > 0 when newer. */
export function compareVersions(a: string, b: string): number {
  const x = parts(a)
  const y = parts(b)
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0)
    if (d) return d
  }
  return 0
}

/** The newest of some versions ('' when there are none). */
export const newestVersion = (versions: string[]): string => versions.reduce((m, v) => (!m || compareVersions(v, m) > 0 ? v : m), '')
