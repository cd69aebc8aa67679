/**
 * Messaging (issue 27 item 1) in real browsers, JavaScript on and off, with a real SMTP server
 * (tests/e2e/global-setup.ts): a message to a team with a document attached; the reader's unread
 * count goes up (live with JavaScript, on the next page without), down when they read it; the reply
 * counts on the other side; a member who never reads it gets a mail after MSG_UNREAD_MAIL_AFTER_S.
 */
import type { Browser, Page } from '@playwright/test'
import { E2E } from '../../../tests/e2e/env'
import { expect, login, test } from '../../../tests/e2e/fixtures'
import { mailsIn } from '../../../tests/helpers/smtp'

const FAC = 'greenleaf'
const modules = { [FAC]: ['oth', 'help'] }

async function open(browser: Browser, js: boolean, u: { email: string; password: string }): Promise<Page> {
  const ctx = await browser.newContext({ javaScriptEnabled: js })
  const page = await ctx.newPage()
  await login(page, u.email, u.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  return page
}

/** The shell's Messages badge: live over the event stream with JavaScript, on the next page without. */
async function expectBadge(page: Page, js: boolean, count: number) {
  if (!js) await page.reload()
  const badge = page.getByTestId('unread-messages')
  if (count) await expect(badge).toHaveText(String(count), { timeout: 10_000 })
  else await expect(badge).toHaveCount(0, { timeout: 10_000 })
}

test('two people exchange messages, the unread counts follow, an unread message is mailed', async ({ browser, createUser, database, javaScriptEnabled: js }) => {
  test.setTimeout(120_000)
  const [a, b, c] = [await createUser({ modules }), await createUser({ modules }), await createUser({ modules })]
  const team = `E2E crew ${a.uid}`
  await database.store.insert({ uid: 'e2e-fixture' }, FAC, 'team_groups', { name: team, department: 'Cultivation', member_uids: [b.uid, c.uid] })
  const subject = `Feed schedule ${a.uid}`
  const pageA = await open(browser, js, a)
  const pageB = await open(browser, js, b)
  if (js) await expect(pageB.locator('[data-connection="connected"]')).toBeVisible()
  await expect(pageB.getByRole('banner').getByRole('link', { name: 'Messages', exact: true })).toBeVisible()
  await expectBadge(pageB, js, 0)

  // A writes to the team, with a document of the facility's files attached
  await pageA.goto('/MsgMessages')
  await pageA.getByRole('link', { name: 'New message' }).click()
  await pageA.getByLabel('To', { exact: true }).selectOption({ label: `${team} (2)` })
  await pageA.getByLabel('Subject', { exact: true }).fill(subject)
  await pageA.getByLabel('Message', { exact: true }).fill('Switch Flower Room 2 to week 5 feed on Monday.')
  await pageA.getByText('Attach documents from the facility’s files').click()
  const first = pageA.getByRole('group', { name: 'Attach documents' }).getByRole('checkbox').first()
  const fileName = ((await pageA.getByRole('group', { name: 'Attach documents' }).locator('label').first().textContent()) ?? '').trim()
  await first.check()
  await pageA.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(pageA).toHaveURL(/\/MsgMessages\?c=/)
  const thread = new URL(pageA.url()).searchParams.get('c')!
  const conv = pageA.getByRole('region', { name: 'Conversation' })
  await expect(conv.getByText('Switch Flower Room 2 to week 5 feed on Monday.')).toBeVisible()
  const attachment = conv.getByRole('link', { name: fileName })
  await expect(attachment).toHaveAttribute('href', /^\/getfiles\/greenleaf\//)
  expect((await pageA.request.get((await attachment.getAttribute('href'))!)).status()).toBe(200)

  // B sees it counted, opens it: read
  await expectBadge(pageB, js, 1)
  await pageB.getByRole('banner').getByRole('link', { name: /^Messages: 1 unread/ }).click()
  const row = pageB.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: new RegExp(subject) })
  await expect(row).toContainText('1 unread')
  await row.click()
  await expect(pageB.getByRole('region', { name: 'Conversation' }).getByText('Switch Flower Room 2 to week 5 feed on Monday.')).toBeVisible()
  await expect(pageB.getByRole('region', { name: 'Conversation' }).getByRole('link', { name: fileName })).toBeVisible()
  await expectBadge(pageB, js, 0)
  // a slow machine may take longer than the delay to get B here (then B was rightly mailed): nothing after this
  const mailsTo = (u: { email: string }) => mailsIn(E2E.mailDir).filter((m) => m.to.includes(u.email) && m.subject === `Unread message: ${subject}`)
  const mailedBWhenRead = mailsTo(b).length

  // B answers; A's count goes up, and down once A reads the answer
  await pageA.goto('/Welcome')
  await pageB.getByLabel('Your reply').fill('Got it, week 5 from Monday.')
  await pageB.getByRole('button', { name: 'Send reply' }).click()
  await expect(pageB.getByRole('region', { name: 'Conversation' }).getByText('Got it, week 5 from Monday.')).toBeVisible()
  const replied = Date.now()
  await expectBadge(pageA, js, 1)
  await pageA.goto(`/MsgMessages?c=${thread}`)
  await expect(pageA.getByRole('region', { name: 'Conversation' }).getByText('Got it, week 5 from Monday.')).toBeVisible()
  await expectBadge(pageA, js, 0)

  // C never opened it: after the delay (3 s here) the server mails C, through SMTP: one mail per batch of
  // unread posts (the post and the reply together, or apart when the reply came after the first mail), never
  // again each round; B, who read everything, gets nothing more
  await expect.poll(() => mailsTo(c).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1)
  expect(mailsTo(c)[0].text).toContain(`${E2E.baseURL}/MsgMessages?c=${thread}`)
  await pageA.waitForTimeout(Math.max(0, replied + 6_000 - Date.now())) // the reply is past the delay and a round
  const mailedC = mailsTo(c).length
  expect(mailedC).toBeLessThanOrEqual(2)
  await pageA.waitForTimeout(2_500) // two more rounds
  expect(mailsTo(c)).toHaveLength(mailedC)
  expect(mailsTo(b)).toHaveLength(mailedBWhenRead)
  await pageA.context().close()
  await pageB.context().close()
})

test('the compose form refuses a message without text and keeps what was typed', async ({ page, createUser }) => {
  const a = await createUser({ modules })
  const b = await createUser({ modules })
  await login(page, a.email, a.password)
  await page.getByRole('region', { name: 'Signed in' }).waitFor()
  await page.goto(`/MsgMessages?new=1&to=user:${b.uid}`)
  await page.getByLabel('Subject', { exact: true }).fill('Only a subject')
  // the browser's own check would stop an empty field first: spaces pass it and the server refuses
  await page.getByLabel('Message', { exact: true }).fill('   ')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(page.getByRole('alert')).toContainText('Write a message.')
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue('Only a subject')
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(`user:${b.uid}`)
})
