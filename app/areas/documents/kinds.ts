/**
 * The three kinds of document the area edits (issue 26): where each lives, which field holds its
 * HTML, which screen edits it. Pure data, shared by the server and the browser.
 */
export type DocKind = 'doc' | 'page' | 'policy'

export interface DocKindInfo {
  kind: DocKind
  /** the table */
  collection: string
  /** the field that holds the HTML */
  bodyKey: string
  /** the screen (route map path) that lists and edits it */
  base: string
  /** true: kept under the platform organisation (sup_html) */
  platform: boolean
  /** what one is called in messages */
  noun: string
}

export const DOC_KINDS: Record<DocKind, DocKindInfo> = {
  doc: { kind: 'doc', collection: 'doc_html', bodyKey: 'body', base: '/DocHTMLEditor', platform: false, noun: 'document' },
  page: { kind: 'page', collection: 'sup_html', bodyKey: 'html', base: '/HTMLEditor', platform: true, noun: 'page' },
  policy: { kind: 'policy', collection: 'pol_docs', bodyKey: 'body', base: '/PolDocs', platform: false, noun: 'policy' },
}

export const kindOfCollection = (collection: string): DocKindInfo | undefined => Object.values(DOC_KINDS).find((k) => k.collection === collection)
