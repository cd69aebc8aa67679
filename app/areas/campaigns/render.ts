/**
 * A campaign mail as its recipient reads it (issue 27 item 4): the template's subject and HTML body
 * with the merge fields filled (HTML-escaped in the body), a plain-text version of the same, and the
 * unsubscribe footer. Pure: the sender, the template preview and the create page use it.
 */
import { fillMergeFields, type MergeValues } from './rules'

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/** HTML as plain text: paragraphs and line breaks kept, tags dropped, the common entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<\s*(br|\/p|\/div|\/h[1-6]|\/li|\/tr)\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

export interface RenderedMail {
  subject: string
  html: string
  text: string
}

export function renderMail(t: { subject: string; body: string }, values: MergeValues, unsubscribeUrl: string): RenderedMail {
  const subject = fillMergeFields(t.subject, values).replace(/[\r\n]+/g, ' ').trim()
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, escapeHtml(v ?? '')])) as MergeValues
  const body = fillMergeFields(t.body, escaped)
  const footer = `You receive this mail from ${values.sender ?? 'us'} because your business is in our contacts.`
  const html = `${body}\n<hr>\n<p style="font-size:12px;color:#555">${escapeHtml(footer)} <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>\n`
  const text = `${htmlToText(body)}\n\n--\n${footer}\nUnsubscribe: ${unsubscribeUrl}\n`
  return { subject, html, text }
}
