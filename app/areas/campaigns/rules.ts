/**
 * Mail templates' merge fields (issue 27 item 4): `{{first_name}}`, `{{company}}`, … filled from a
 * prospect's or a client's record. A template naming a field that does not exist is refused on every
 * write path (the save rule below), so a campaign never mails a literal `{{frist_name}}`. Pure:
 * browser and server.
 */
import type { SaveRule } from '../../forms/save-rules'

export const TEMPLATES = 'crm_templates'
export const CAMPAIGNS = 'crm_campaigns'
export const UNSUB = 'crm_unsub'

/** What each merge field holds, in the order the template page lists them. */
export const MERGE_FIELDS = {
  first_name: 'the contact’s first name',
  last_name: 'the contact’s last name',
  contact: 'the contact’s full name',
  company: 'the prospect’s or client’s company',
  email: 'the address the mail goes to',
  title: 'the contact’s job title',
  city: 'the city',
  state: 'the state',
  stage: 'the prospect’s stage',
  sender: 'your organisation’s name',
  signature: 'your organisation’s name, to sign the mail with',
  date: 'the day the mail is sent',
} as const
export type MergeField = keyof typeof MERGE_FIELDS
export type MergeValues = Partial<Record<MergeField, string>>

const FIELD = /\{\{\s*([^{}]*?)\s*\}\}/g

/** Every `{{name}}` a text uses, each once, in order. */
export function mergeFieldsIn(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(FIELD)) if (!out.includes(m[1])) out.push(m[1])
  return out
}

export const isMergeField = (name: string): name is MergeField => Object.prototype.hasOwnProperty.call(MERGE_FIELDS, name)

/** The merge fields of subject and body that do not exist. */
export const unknownMergeFields = (subject: string, body: string): string[] => mergeFieldsIn(`${subject}\n${body}`).filter((n) => !isMergeField(n))

/** The text with each merge field replaced by its value (an empty value leaves nothing). */
export const fillMergeFields = (text: string, values: MergeValues): string => text.replace(FIELD, (_, name: string) => (isMergeField(name) ? (values[name] ?? '') : ''))

export const unknownFieldsMessage = (names: string[]) =>
  `${names.length === 1 ? 'Unknown merge field' : 'Unknown merge fields'}: ${names.map((n) => `{{${n}}}`).join(', ')}. Use ${Object.keys(MERGE_FIELDS).map((n) => `{{${n}}}`).join(', ')}.`

const str = (v: unknown) => (typeof v === 'string' ? v : '')
const isSms = (channel: unknown) => str(channel).trim().toLowerCase() === 'sms'

/** A mail template (any channel but SMS) names only merge fields that exist. */
export const knownMergeFields: SaveRule = (r) => {
  if (isSms(r.channel)) return { kind: 'continue' }
  const subject = str(r.subject)
  const body = str(r.body)
  const bad = unknownMergeFields(subject, body)
  if (!bad.length) return { kind: 'continue' }
  const inSubject = unknownMergeFields(subject, '').length > 0
  const inBody = unknownMergeFields('', body).length > 0
  return { kind: 'error', message: unknownFieldsMessage(bad), fields: [...(inSubject ? ['subject'] : []), ...(inBody ? ['body'] : [])] }
}

/** The merge values of a prospect (crm_prospects) or a client (set_clients) record. */
export function mergeValuesOf(source: 'crm_prospects' | 'set_clients', r: Record<string, unknown>, sender: string): MergeValues {
  const contact = source === 'crm_prospects' ? str(r.contact).trim() : ''
  const [first = '', ...rest] = contact.split(/\s+/).filter(Boolean)
  return {
    first_name: first,
    last_name: rest.join(' '),
    contact,
    company: str(source === 'crm_prospects' ? r.company : r.name).trim(),
    email: str(r.email).trim(),
    title: str(r.title).trim(),
    city: str(r.city).trim(),
    state: str(r.state).trim(),
    stage: str(r.stage).trim(),
    sender,
    signature: sender,
  }
}
