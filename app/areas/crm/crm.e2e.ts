/**
 * Issue 27 "done when" for the CRM board, JavaScript on and off: a prospect moves through the
 * pipeline (its card's stage menu — a plain form without JavaScript, the keyboard with it — and,
 * with JavaScript, a drag), the board and the prospects table show the new stage after a reload;
 * a stale move is refused with a clear message; with JavaScript another open board follows a move
 * over the event stream; a CRM to-do with a due date is in the calendar cell of its day and opens
 * the to-do's record.
 */
import crypto from 'node:crypto'
import { timeZoneOf } from '../../facilities/facts.server'
import { addDays, localDate, zonedMidnight } from '../../format/date-ranges'
import { expect, signIn, test } from '../../../tests/e2e/fixtures'

test('the pipeline board: moves by stage menu and drag, stale refused, the table agrees; a to-do on the calendar', async ({ page, browser, createUser, database, cleanup }) => {
  test.setTimeout(180_000)
  const js = test.info().project.name === 'js'
  const tag = crypto.randomBytes(3).toString('hex')
  const actor = { uid: 'e2e-fixture' }
  const p = await database.store.insert(actor, 'greenleaf', 'crm_prospects', { company: `Pipeline Test ${tag}`, contact: 'Rosa Diaz', stage: 'New', value: 42000 })
  const todo = await database.store.insert(actor, 'greenleaf', 'crm_todo', { task: `Follow up ${tag}`, prospect: p._id, status: 'Open', done: 'no', due: '' })
  cleanup(async () => {
    await database.store.remove(actor, 'greenleaf', 'crm_todo', todo._id)
    await database.store.remove(actor, 'greenleaf', 'crm_prospects', p._id)
  })
  const u = await createUser({ role: 'admin', modules: { greenleaf: null } })
  await signIn(page, u.email, u.password)

  const card = page.locator(`[data-card="${p._id}"]`)
  const column = (stage: string) => page.locator(`[data-column="${stage}"]`)
  const stageOf = async () => String((await database.store.get('greenleaf', 'crm_prospects', p._id))!.stage)
  const byMenu = async (stage: string) => {
    await card.getByLabel(`Stage of Pipeline Test ${tag}`).selectOption(stage)
    await card.getByRole('button', { name: 'Move' }).click()
  }

  await page.goto('/CrmSalesPipeline')
  await expect(column('New').locator(`[data-card="${p._id}"]`)).toBeVisible()
  await expect(card).toContainText('Rosa Diaz')
  await expect(card).toContainText('$42,000')

  // 1. the stage menu (a plain form post without JavaScript; in the background with it)
  await byMenu('Contacted')
  await expect(column('Contacted').locator(`[data-card="${p._id}"]`)).toBeVisible()
  await expect.poll(stageOf).toBe('Contacted')
  // settled: the card as the server now has it (the card shown while the move was on its way is replaced
  // when the answer comes; a drag begun on it failed with "Element is not attached to the DOM")
  await expect(card).toHaveAttribute('aria-busy', 'false')
  await expect(card.locator('input[name="from"]')).toHaveValue('Contacted')

  // 2. with JavaScript a drag to the column; without it the menu again
  if (js) {
    // dropped at the card's own height in the next column (a drop that needs no scrolling: a page
    // scrolled mid-drag would start the drag on whatever card is then under the pointer)
    await card.scrollIntoViewIfNeeded()
    const from = (await card.boundingBox())!
    const to = (await column('Qualified').boundingBox())!
    await card.dragTo(column('Qualified'), { sourcePosition: { x: 4, y: 4 }, targetPosition: { x: 40, y: from.y - to.y + 4 } })
  } else await byMenu('Qualified')
  await expect(column('Qualified').locator(`[data-card="${p._id}"]`)).toBeVisible()
  await expect.poll(stageOf).toBe('Qualified')
  // the card as the server now has it (with JavaScript it showed in its new column while the move was on its way)
  await expect(card).toHaveAttribute('aria-busy', 'false')
  await expect(card.locator('input[name="from"]')).toHaveValue('Qualified')

  // 3. with JavaScript the keyboard: the focused card's menu, then Enter on its button
  if (js) {
    const menu = card.getByLabel(`Stage of Pipeline Test ${tag}`)
    await menu.selectOption('Proposal')
    await menu.press('Tab')
    await expect(card.getByRole('button', { name: 'Move' })).toBeFocused()
    await page.keyboard.press('Enter')
  } else await byMenu('Proposal')
  await expect.poll(stageOf).toBe('Proposal')

  // after a reload the board and the prospects table show the new stage
  await page.reload()
  await expect(column('Proposal').locator(`[data-card="${p._id}"]`)).toBeVisible()
  await page.goto(`/CrmProspect?q=${tag}`)
  await expect(page.getByTestId('board-link')).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: `Pipeline Test ${tag}` })).toContainText('Proposal')

  // a stale move: someone else moved it after this board was loaded
  await page.goto('/CrmSalesPipeline')
  const now = (await database.store.get('greenleaf', 'crm_prospects', p._id))!
  await database.store.update({ uid: 'someone-else' }, 'greenleaf', 'crm_prospects', p._id, { ...now, stage: 'Negotiation' })
  await byMenu('Won')
  await expect(page.getByRole('alert').filter({ hasText: 'was moved to Negotiation by someone else meanwhile' })).toBeVisible()
  expect(await stageOf()).toBe('Negotiation')

  if (js) {
    // another open board follows a move over the event stream (no reload)
    await page.goto('/CrmSalesPipeline')
    await expect(column('Negotiation').locator(`[data-card="${p._id}"]`)).toBeVisible()
    const other = await browser.newContext()
    const page2 = await other.newPage()
    await signIn(page2, u.email, u.password)
    await page2.goto('/CrmSalesPipeline')
    await page2.locator(`[data-card="${p._id}"]`).getByLabel(`Stage of Pipeline Test ${tag}`).selectOption('Won')
    await page2.locator(`[data-card="${p._id}"]`).getByRole('button', { name: 'Move' }).click()
    await expect.poll(stageOf).toBe('Won')
    await expect(column('Won').locator(`[data-card="${p._id}"]`)).toBeVisible({ timeout: 15_000 })
    await other.close()
  }

  // a to-do with a due date (the afternoon of tomorrow, facility time) is in its day's cell, styled a CRM follow-up
  const tz = await timeZoneOf({ database }, 'greenleaf')
  const day = addDays(localDate(new Date(), tz), 1)
  await database.store.update(actor, 'greenleaf', 'crm_todo', todo._id, { ...todo, due: new Date(zonedMidnight(day, tz).getTime() + 14 * 3_600_000).toISOString() })
  for (const view of ['', 'view=week&', 'view=agenda&']) {
    await page.goto(`/SchCalendar?${view}date=${day}`)
    const item = page.locator(`[data-cell="${day}"] [data-task="${todo._id}"][data-kind="crm-todo"]`)
    await expect(item).toBeVisible()
    await expect(item).toContainText(`Follow up ${tag}`)
    await expect(item).toContainText(`Pipeline Test ${tag}`)
  }
  // the calendar's filters still work: a task category hides it, "CRM follow-up" keeps it
  await page.goto(`/SchCalendar?date=${day}&category=IPM`)
  await expect(page.getByTestId('month-grid')).toBeVisible()
  await expect(page.locator(`[data-task="${todo._id}"]`)).toHaveCount(0)
  await page.goto(`/SchCalendar?date=${day}`)
  await page.getByLabel('Category').selectOption('CRM follow-up')
  await page.getByTestId('calendar').getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/category=CRM/)
  await page.locator(`[data-cell="${day}"] [data-task="${todo._id}"]`).click()
  await expect(page).toHaveURL(new RegExp(`/CrmToDo/${todo._id}/edit`))
})
