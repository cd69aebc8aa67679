/**
 * Markdown for editing without JavaScript (issue 26 item 1): the form's textarea shows a document
 * as Markdown (turndown, with GitHub tables) and a posted Markdown text becomes HTML (marked, GitHub
 * flavour: tables, lists, links). What comes out is not trusted: the write path's sanitiser cleans it
 * as it cleans any HTML (sanitize.server.ts); the preview is sanitised before it is shown.
 */
import { marked } from 'marked'
import TurndownService from 'turndown'
// @ts-expect-error the plugin ships no types (a CommonJS module of two functions)
import gfmPlugin from '@joplin/turndown-plugin-gfm'
import { sanitizeDocumentHtml } from './sanitize.server'

const gfm = (gfmPlugin as { gfm: TurndownService.Plugin }).gfm

let turndown: TurndownService | undefined
function service(): TurndownService {
  if (turndown) return turndown
  turndown = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', emDelimiter: '*' })
  turndown.use(gfm)
  return turndown
}

/** A stored (sanitised) document as Markdown for the textarea. */
export function htmlToMarkdown(html: string): string {
  if (!html.trim()) return ''
  return service().turndown(sanitizeDocumentHtml(html))
}

/** Markdown as HTML (GitHub flavour), sanitised. */
export function markdownToHtml(markdown: string): string {
  const html = marked.parse(String(markdown ?? ''), { gfm: true, breaks: false, async: false }) as string
  return sanitizeDocumentHtml(html)
}
