/**
 * The one HTML sanitiser (issue 26 item 1): an allow-list (sanitize-html, decision 044) of what a
 * document may hold — headings, paragraphs, lists, tables, links, images from the organisation's
 * files, emphasis, quotes, code. Everything else goes: <script>, <style>, <iframe>, <object>, forms,
 * every `on…` handler, `style` and `class` (what Word and Google Docs paste), and any link or image
 * address that is not http(s), mailto or tel, our own path, or a mail template's merge tag (`{link}`). Registered as a field cleaner of the
 * one write path (area.server.ts), so the editor, the Markdown form and the API store the same
 * clean HTML; /DisplayHTML and the PDF clean again on the way out (documents stored before this).
 */
import sanitizeHtml from 'sanitize-html'
import { safeLink } from '../../utils/safe-url'

const TAGS = [
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code',
  'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'sub', 'sup', 'mark', 'small',
  'ul', 'ol', 'li', 'a', 'img',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col',
]

/** A link or image address we keep: the web, mail, phone, or a path of this site (never `//host`). */
export function safeUrl(href: string, kind: 'link' | 'image'): boolean {
  return safeLink(href, kind) !== null
}

/** A link that is one merge tag of a mail template (`href="{link}"`): filled in with a checked address when the mail is made. */
const MERGE_TAG_LINK = /^\{[A-Za-z_][A-Za-z0-9_]*\}$/

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: TAGS,
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
    col: ['span'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  // the contents of these go with them (a script's text is not a paragraph)
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template', 'title', 'head', 'xml'],
  disallowedTagsMode: 'discard',
  exclusiveFilter: (frame) => (frame.tag === 'a' && !frame.attribs.href && !frame.text.trim()) || (frame.tag === 'img' && !frame.attribs.src),
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href && (safeUrl(attribs.href, 'link') || MERGE_TAG_LINK.test(attribs.href)) ? attribs.href : undefined
      return { tagName, attribs: { ...(href ? { href } : {}), ...(attribs.title ? { title: attribs.title } : {}), ...(href && /^https?:/i.test(href) ? { rel: 'noopener noreferrer', target: '_blank' } : {}) } }
    },
    img: (tagName, attribs) => {
      const src = attribs.src && safeUrl(attribs.src, 'image') ? attribs.src : ''
      const keep = Object.fromEntries(Object.entries(attribs).filter(([k]) => ['alt', 'title', 'width', 'height'].includes(k)))
      return { tagName, attribs: { ...keep, ...(src ? { src } : {}) } }
    },
    // Word's bold and italic spans come as b/i: keep the meaning in the tags we render
    b: 'strong',
    i: 'em',
  },
}
// what transformTags adds must survive the attribute filter
OPTIONS.allowedAttributes = { ...(OPTIONS.allowedAttributes as Record<string, string[]>), a: ['href', 'title', 'rel', 'target'] }

/** The HTML a document may store: only the allow-list, whitespace between blocks trimmed. */
export function sanitizeDocumentHtml(html: string): string {
  return sanitizeHtml(String(html ?? ''), OPTIONS).trim()
}

/** The text of a document (no tags), for search snippets and diffs of titles. */
export function textOf(html: string): string {
  return sanitizeHtml(String(html ?? ''), { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim()
}
