/**
 * Which files an upload may be (SPEC §2.6 file drop, §7 files API), shared by the browser (the drop
 * zone's quick checks) and the server (app/files/store.server.ts, the authority): an allow-list by
 * extension, the messages a refusal shows. SVG and HTML are refused outright because they can carry
 * script. The server also checks the first bytes (sniff.ts): the name alone is never trusted.
 */

export type FileKind = 'png' | 'jpeg' | 'webp' | 'pdf' | 'text'

/** Allowed extensions (lower case, no dot) → what the file must really be and how it is served. */
export const ALLOWED: Record<string, { kind: FileKind; type: string; what: string }> = {
  png: { kind: 'png', type: 'image/png', what: 'PNG image' },
  jpg: { kind: 'jpeg', type: 'image/jpeg', what: 'JPEG image' },
  jpeg: { kind: 'jpeg', type: 'image/jpeg', what: 'JPEG image' },
  webp: { kind: 'webp', type: 'image/webp', what: 'WebP image' },
  pdf: { kind: 'pdf', type: 'application/pdf', what: 'PDF document' },
  csv: { kind: 'text', type: 'text/csv', what: 'CSV text file' },
  txt: { kind: 'text', type: 'text/plain', what: 'text file' },
}

/** Refused by name whatever they contain: a browser runs their script when they are opened. */
export const SCRIPTABLE = ['svg', 'svgz', 'html', 'htm', 'xhtml', 'xml', 'js', 'mjs']

export const IMAGE_EXTS = ['png', 'jpg', 'jpeg', 'webp']

/** The `accept` of a file input for a field's display format (image, pdf, anything allowed). */
export function acceptFor(format: string | undefined): string {
  const exts = format === 'image' ? IMAGE_EXTS : format === 'pdf' ? ['pdf'] : Object.keys(ALLOWED)
  return exts.map((e) => `.${e}`).join(',')
}

/** The extension of a file name, lower-cased, without the dot ('' when it has none). */
export function extOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  const i = base.lastIndexOf('.')
  return i > 0 ? base.slice(i + 1).toLowerCase() : ''
}

const mb = (bytes: number) => `${Math.round((bytes / 1_048_576) * 100) / 100} MB`

export const FILE_MSG = {
  tooBig: (name: string, limit: number) => `${name} is larger than ${mb(limit)}, the most a file may be.`,
  scriptable: (name: string) => `${name}: SVG and HTML files are not accepted, because they can carry scripts.`,
  type: (name: string) => `${name}: only PNG, JPEG, WebP, PDF, CSV and TXT files are accepted.`,
  mismatch: (name: string, what: string) => `${name} is not really a ${what}: its contents do not match its name.`,
  empty: (name: string) => `${name} is empty.`,
  notImage: (label: string) => `${label} takes an image: PNG, JPEG or WebP.`,
  notPdf: (label: string) => `${label} takes a PDF document.`,
  noFile: 'Send a file as files[0].',
  network: 'The upload did not reach the server. Check the connection and try again.',
} as const

/** Can a file of this name be uploaded at all? null when yes, else the reason. Size is checked apart. */
export function refuseName(name: string): string | null {
  const ext = extOf(name)
  if (SCRIPTABLE.includes(ext)) return FILE_MSG.scriptable(name)
  if (!ALLOWED[ext]) return FILE_MSG.type(name)
  return null
}

/** Does a field with this display format take a file with this extension? null when yes, else the reason. */
export function refuseForField(format: string | undefined, label: string, ext: string): string | null {
  if (format === 'image' && !IMAGE_EXTS.includes(ext)) return FILE_MSG.notImage(label)
  if (format === 'pdf' && ext !== 'pdf') return FILE_MSG.notPdf(label)
  return null
}
