/**
 * The campaign screens' loaders and actions (issue 27 item 4): /CrmCampaignCreate (pick a template and
 * a list, see how many will receive it and a preview, start), /CrmCampaign (every campaign's progress;
 * `?c={id}` one campaign with each recipient's status), /CrmTemplate/{id}/preview (a template filled
 * for a sample recipient). Forms post or GET without JavaScript. Entitlement: each screen's own.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { InvalidRecord } from '../../records/write.server'
import { isAppError, notFound, statusOf } from '../../utils/errors'
import { writerOf } from '../documents/access.server'
import { audienceOf, countOf, isWho, WHO, type AudienceQuery } from './audience.server'
import { mailTemplates, newStartKey, progressOf, recipientsOf, senderOf, startCampaign } from './campaigns.server'
import { renderMail } from './render'
import { MERGE_FIELDS, TEMPLATES, unknownMergeFields, type MergeValues } from './rules'

export const CREATE = '/CrmCampaignCreate'
export const LIST = '/CrmCampaign'
export const TEMPLATE_SCREEN = '/CrmTemplate'

const SAMPLE_LINK = 'https://example.invalid/Unsubscribe/sample'

function refusal(e: unknown) {
  if (e instanceof InvalidRecord) return { error: e.problems.map((p) => p.message).join(' '), status: 400 }
  if (isAppError(e)) return { error: e.message, status: statusOf(e) }
  throw e
}

/** The sample recipient of a preview: the first of the list, else a made-up one. */
const sampleOf = (first: MergeValues | undefined, sender: string): MergeValues =>
  ({ ...(first ?? { first_name: 'Jordan', last_name: 'Lee', contact: 'Jordan Lee', company: 'Sample Dispensary', email: 'jordan@example.com', city: 'Denver', state: 'CO', stage: 'Qualified', title: 'Head Buyer' }), sender, signature: sender, date: new Date().toISOString().slice(0, 10) })

export async function createLoader({ request, context }: LoaderFunctionArgs) {
  const { facility } = await requireScreen(request, context, CREATE)
  const url = new URL(request.url)
  const p = (k: string) => url.searchParams.get(k) ?? ''
  const templates = await mailTemplates(context.database, facility)
  const sender = await senderOf(context.database, facility)
  const stages = (await context.database.schemas.get('crm_prospects'))?.fields.find((f) => f.key === 'stage')?.en?.list ?? []
  const who = isWho(p('who')) ? p('who') : 'prospects'
  const q: AudienceQuery = { who: who as AudienceQuery['who'], stage: p('stage'), company: p('company') }
  const list = await audienceOf(context.database, facility, q, sender)
  const template = templates.find((t) => t.id === p('template'))
  const first = list.find((r) => !r.unsubscribed)
  const bad = template ? unknownMergeFields(template.subject, template.body) : []
  return json({
    templates: templates.map((t) => ({ id: t.id, name: t.name })),
    stages,
    whos: Object.entries(WHO).map(([value, label]) => ({ value, label })),
    values: { name: p('name'), template: template?.id ?? '', who, stage: q.stage, company: p('company') },
    count: countOf(list),
    preview: template && !bad.length ? { to: first?.email ?? 'jordan@example.com', ...renderMail(template, sampleOf(first?.fields, sender), SAMPLE_LINK) } : null,
    templateProblem: bad.length ? `This template names unknown merge fields: ${bad.map((b) => `{{${b}}}`).join(', ')}. Correct it on the Templates page first.` : null,
    key: newStartKey(),
  })
}

export async function createAction({ request, context }: ActionFunctionArgs) {
  const { s, facility } = await requireScreen(request, context, CREATE)
  const form = await request.formData()
  const v = (k: string) => String(form.get(k) ?? '')
  const input = { name: v('name'), template: v('template'), who: v('who'), stage: v('stage'), company: v('company'), key: v('key') }
  try {
    const r = await startCampaign(context, writerOf(context, s, facility), input)
    const notice = `Campaign started: ${r.receive} ${r.receive === 1 ? 'mail goes' : 'mails go'} out${r.skipped ? `, ${r.skipped} unsubscribed ${r.skipped === 1 ? 'address' : 'addresses'} skipped` : ''}.`
    return redirect(`${LIST}?c=${encodeURIComponent(r.id)}&notice=${encodeURIComponent(notice)}`)
  } catch (e) {
    const r = refusal(e)
    return json({ error: r.error, values: input }, { status: r.status })
  }
}

export async function listLoader({ request, context }: LoaderFunctionArgs) {
  const { facility } = await requireScreen(request, context, LIST)
  const url = new URL(request.url)
  const id = url.searchParams.get('c')
  const campaigns = await progressOf(context.database, facility, id ?? undefined)
  if (id && !campaigns.some((c) => c.sending)) throw new Response('There is no such campaign in this facility, or it was never sent.', { status: 404 })
  return json({
    campaigns,
    one: id ? campaigns[0] : null,
    recipients: id ? await recipientsOf(context.database, facility, id) : [],
    notice: url.searchParams.get('notice'),
  })
}

export async function previewLoader({ request, context, params }: LoaderFunctionArgs) {
  const { facility } = await requireScreen(request, context, TEMPLATE_SCREEN)
  const t = await context.database.store.get(facility, TEMPLATES, params.id ?? '')
  if (!t) throw notFound('There is no such template in this facility.')
  const sender = await senderOf(context.database, facility)
  const list = await audienceOf(context.database, facility, { who: 'prospects', stage: '' }, sender)
  const first = list.find((r) => !r.unsubscribed)
  const subject = String(t.subject ?? '')
  const body = String(t.body ?? '')
  const bad = unknownMergeFields(subject, body)
  return json({
    id: t._id,
    name: String(t.name ?? ''),
    fields: Object.entries(MERGE_FIELDS).map(([k, what]) => ({ key: `{{${k}}}`, what })),
    problem: bad.length ? `Unknown merge fields: ${bad.map((b) => `{{${b}}}`).join(', ')}.` : null,
    preview: { to: first?.email ?? 'jordan@example.com', ...renderMail({ subject, body }, sampleOf(first?.fields, sender), SAMPLE_LINK) },
  })
}
