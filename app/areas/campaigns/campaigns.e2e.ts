/**
 * Mail campaigns (issue 27 item 4) in real browsers, JavaScript on and off, with the real SMTP server
 * of the run (tests/e2e/global-setup.ts): marketing staff preview a template, pick it and 50 prospects
 * on Create Campaign, start it and watch it go out on Campaigns (live with JavaScript, on reload
 * without) — 50 mails. One recipient follows the unsubscribe link in their mail (no sign-in) and
 * confirms; the next campaign to the same list leaves them out: 49 mails, and they are listed as skipped.
 */
import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { E2E } from '../../../tests/e2e/env'
import { expect, signIn, test } from '../../../tests/e2e/fixtures'
import { mailsIn } from '../../../tests/helpers/smtp'

const FAC = 'greenleaf'
const N = 50

/** Waits until the campaign page says `text` (live with JavaScript; without it, reloading the page). */
async function waitProgress(page: Page, js: boolean, text: string) {
  const line = page.getByTestId('campaign-progress')
  if (js) return expect(line).toHaveText(text, { timeout: 60_000 })
  await expect(async () => {
    await page.getByRole('link', { name: 'Reload' }).click()
    await expect(line).toHaveText(text, { timeout: 1000 })
  }).toPass({ timeout: 60_000, intervals: [1000] })
}

async function startCampaign(page: Page, name: string, template: string, company: string, expectCount: string) {
  await page.goto('/CrmCampaignCreate')
  await page.getByLabel('Campaign name').fill(name)
  await page.getByLabel('Template').selectOption({ label: template })
  await page.getByLabel('Recipients').selectOption({ label: 'Prospects' })
  await page.getByLabel('Company contains').fill(company)
  await page.getByRole('button', { name: 'Count and preview' }).click()
  await expect(page.getByTestId('campaign-count')).toHaveText(expectCount)
  await expect(page.getByTestId('preview-subject')).toHaveText(new RegExp(`^Fall menu for ${company} `))
  await expect(page.getByLabel('Campaign name')).toHaveValue(name)
  await page.getByRole('button', { name: 'Start campaign' }).click()
  await expect(page).toHaveURL(/\/CrmCampaign\?c=/)
}

test('a campaign to 50 prospects sends 50 mails; one unsubscribes by the link; the next campaign skips them', async ({ browser, page, createUser, database, javaScriptEnabled: js }) => {
  test.setTimeout(240_000)
  const tag = `Camp${crypto.randomBytes(3).toString('hex')}`
  const u = await createUser({ modules: { [FAC]: ['crm', 'help'] } })
  const template = `Fall menu ${tag}`
  const emails: string[] = []
  for (let i = 0; i < N; i++) {
    const email = `${tag.toLowerCase()}-${i}@e2e-campaign.example`
    emails.push(email)
    await database.store.insert({ uid: 'e2e-fixture' }, FAC, 'crm_prospects', { company: `${tag} Shop ${i}`, contact: `Robin${i} Vale`, email, stage: 'Qualified' })
  }
  const mailsTo = (email: string) => mailsIn(E2E.mailDir).filter((m) => m.to.includes(email) && m.subject.startsWith(`Fall menu for ${tag} `))
  const ours = () => emails.flatMap(mailsTo)

  await signIn(page, u.email, u.password)
  if (js) await expect(page.locator('[data-connection="connected"]')).toBeVisible()

  // the template, through the table's form: an unknown merge field is refused, naming it; then it saves
  await page.goto('/CrmTemplate/new')
  await page.getByLabel('Template', { exact: true }).fill(template)
  await page.getByLabel('Channel', { exact: true }).selectOption('Email')
  await page.getByLabel('Subject', { exact: true }).fill('Fall menu for {{company}}')
  await page.getByLabel('Body (HTML)', { exact: true }).fill('<p>Hi {{frist_name}},</p><p>Our fall strains are in at {{sender}}.</p>')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  // beside the field (checked in the browser with JavaScript, by the action without)
  await expect(page.getByText('Unknown merge field: {{frist_name}}.').first()).toBeVisible()
  await expect(page.getByLabel('Body (HTML)', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  expect(await database.store.find(FAC, 'crm_templates', { name: template }, 5)).toHaveLength(0)
  await page.getByLabel('Body (HTML)', { exact: true }).fill('<p>Hi {{first_name}},</p><p>Our fall strains are in at {{sender}}.</p>')
  await page.getByRole('button', { name: 'Save', exact: true }).last().click()
  await expect(page).toHaveURL(/\/CrmTemplate\?msg=saved$/)
  const [tpl] = await database.store.find(FAC, 'crm_templates', { name: template }, 5)

  // the template filled for a sample recipient
  await page.goto(`/CrmTemplate/${tpl._id}/preview`)
  await expect(page.getByRole('heading', { name: `Preview: ${template}` })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Merge fields' })).toContainText('{{first_name}}')

  // the first campaign: 50 mails
  await startCampaign(page, `First ${tag}`, template, tag, `${N} recipients will receive it.`)
  await expect(page.getByText(`Campaign started: ${N} mails go out.`)).toBeVisible()
  await waitProgress(page, js, `${N} / ${N} sent`)
  await expect.poll(() => ours().length, { timeout: 15_000 }).toBe(N)
  expect(new Set(ours().map((m) => m.to[0])).size).toBe(N)
  const mail = mailsTo(emails[7])[0]
  expect(mail.text).toContain('Hi Robin7,')
  expect(mail.raw.replace(/\r?\n[ \t]+/g, ' ')).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/Unsubscribe\/[^>]+>/m)

  // recipient 7 unsubscribes through the link in their mail: no sign-in, a confirm button
  const link = /(http:\/\/127\.0\.0\.1:\d+\/Unsubscribe\/[A-Za-z0-9_.-]+)/.exec(mail.text)![1]
  const stranger = await (await browser.newContext({ javaScriptEnabled: js })).newPage()
  await stranger.goto(link)
  await expect(stranger.getByText(`to ${emails[7]}?`)).toBeVisible()
  await stranger.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(stranger.getByText(`${emails[7]} is unsubscribed`)).toBeVisible()
  await stranger.context().close()
  await page.goto('/CrmUnsub')
  await expect(page.getByText(emails[7])).toBeVisible()

  // the next campaign to the same list leaves them out
  await startCampaign(page, `Second ${tag}`, template, tag, `${N - 1} recipients will receive it (1 unsubscribed address left out).`)
  await expect(page.getByText(`Campaign started: ${N - 1} mails go out, 1 unsubscribed address skipped.`)).toBeVisible()
  await waitProgress(page, js, `${N - 1} / ${N} sent, 1 skipped`)
  const row = page.getByTestId('recipient').filter({ hasText: emails[7] })
  await expect(row).toContainText('skipped')
  await expect.poll(() => ours().length, { timeout: 15_000 }).toBe(2 * N - 1)
  expect(mailsTo(emails[7])).toHaveLength(1)
  expect(mailsTo(emails[8])).toHaveLength(2)
})
