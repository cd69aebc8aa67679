/**
 * Issue 25 "done when" for the calendar, JavaScript on and off, on the demo data: the seeded tasks
 * in the right cells of month and week view; create on a chosen day; move by editing the dates
 * (and, with JavaScript, by dragging); a weekly repeating task with one day skipped; the .ics feed
 * parses with ical.js and holds the same occurrences the agenda shows.
 */
import crypto from 'node:crypto'
import ICAL from 'ical.js'
import { timeZoneOf } from '../../facilities/facts.server'
import { addDays, localDate } from '../../format/date-ranges'
import { expect, signIn, test } from '../../../tests/e2e/fixtures'
import { FIRST_HOUR, HOUR_PX, LAST_HOUR } from './grid'
import { MINUTE_STEP } from '../../forms/record-schema'

test('the calendar: seeded tasks in place, create, move both ways, weekly with an exception, the .ics feed', async ({ page, createUser, database, cleanup }) => {
  test.setTimeout(180_000)
  const js = test.info().project.name === 'js'
  const tag = crypto.randomBytes(3).toString('hex')
  // the tasks this test makes go again, whatever happens (the other project's run opens the same days)
  cleanup(async () => {
    for (const d of (await database.db.query<{ id: string }>(`SELECT id FROM c_sch_tasks WHERE org = 'greenleaf' AND doc->>'title' LIKE $1`, [`% ${tag}`])).rows) await database.store.remove({ uid: 'e2e-fixture' }, 'greenleaf', 'sch_tasks', d.id)
  })
  const u = await createUser({ role: 'admin', modules: { greenleaf: null } })
  await signIn(page, u.email, u.password)
  const tz = await timeZoneOf({ database }, 'greenleaf')
  const today = localDate(new Date(), tz)

  // month and week view: seeded tasks in their cells
  // a task over three days (made here, removed by the cleanup)
  const span = await database.store.insert({ uid: 'e2e-fixture' }, 'greenleaf', 'sch_tasks', { title: `Span ${tag}`, start: new Date().toISOString(), end: new Date(Date.now() + 2 * 86_400_000).toISOString(), status: 'Scheduled', category: 'Maintenance' })
  await page.goto('/SchCalendar')
  await expect(page.getByTestId('month-grid')).toBeVisible()
  const seeded = (await database.store.find('greenleaf', 'sch_tasks', {}, 500)).filter((d) => d.IsUsed !== 'no' && String(d.assignee ?? '') !== '' && !d.repeat)
  const cells = await page.locator('[data-cell]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')!))
  const inMonth = seeded.filter((d) => cells.includes(localDate(new Date(String(d.start)), tz))).slice(0, 6)
  expect(inMonth.length).toBeGreaterThan(3)
  for (const d of inMonth) await expect(page.locator(`[data-cell="${localDate(new Date(String(d.start)), tz)}"] [data-task="${d._id}"]`).first()).toBeVisible()
  // it shows on each day it covers, not only its first
  for (const d of [today, addDays(today, 1), addDays(today, 2)].filter((x) => cells.includes(x))) await expect(page.locator(`[data-cell="${d}"] [data-task="${span._id}"]`)).toBeVisible()
  await page.getByRole('link', { name: 'Week', exact: true }).click()
  await expect(page.getByTestId('week-grid')).toBeVisible()
  const week = await page.locator('[data-cell]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')!))
  expect(week).toHaveLength(7)
  for (const d of seeded.filter((x) => week.includes(localDate(new Date(String(x.start)), tz))).slice(0, 4)) await expect(page.locator(`[data-cell="${localDate(new Date(String(d.start)), tz)}"] [data-task="${d._id}"]`).first()).toBeVisible()
  await page.getByRole('link', { name: 'Next' }).click()
  await expect(page).toHaveURL(/view=week&date=/)
  await page.getByRole('link', { name: 'Today' }).click()

  // the hourly grid: a seeded task in the row of its start hour (facility time), in its day's column
  const hourOf = (iso: string) => Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: tz }).format(new Date(iso)))
  const timed = seeded.find((d) => d.allDay !== 'yes' && hourOf(String(d.start)) >= FIRST_HOUR && hourOf(String(d.end)) < LAST_HOUR && localDate(new Date(String(d.start)), tz) === localDate(new Date(String(d.end)), tz))!
  const tDay = localDate(new Date(String(timed.start)), tz)
  await page.goto(`/SchCalendar?view=week&date=${tDay}`)
  const hourRow = await page.locator(`[data-cell="${tDay}"] [data-slot="${tDay}T${String(hourOf(String(timed.start))).padStart(2, '0')}:00"]`).boundingBox()
  const placed = await page.locator(`[data-cell="${tDay}"] [data-placed="${timed._id}"]`).boundingBox()
  expect(placed!.y).toBeGreaterThanOrEqual(hourRow!.y - 1)
  expect(placed!.y).toBeLessThan(hourRow!.y + HOUR_PX)
  expect(placed!.x).toBeGreaterThanOrEqual(hourRow!.x - 1)

  // create on a chosen day (the form; with JavaScript the same form)
  const day = addDays(today, 1)
  await page.goto(`/SchCalendar?view=week&date=${day}`)
  await page.locator(`[data-new="${day}"]`).click()
  const panel = page.getByTestId('task-panel')
  await panel.getByLabel('Title').fill(`Scout ${tag}`)
  await panel.getByLabel('Start time').fill('09:30')
  await panel.getByLabel('End time').fill('10:30')
  await panel.getByRole('button', { name: 'Add task' }).click()
  const made = page.locator(`[data-cell="${day}"] [data-task]`, { hasText: `Scout ${tag}` })
  await expect(made).toBeVisible()

  // at 800 px wide the week's grid fits (no sideways scroll); an hour slot's + opens the form at that hour
  await page.setViewportSize({ width: 800, height: 900 })
  await page.goto(`/SchCalendar?view=week&date=${day}`)
  expect(await page.evaluate(() => document.documentElement.scrollWidth === document.documentElement.clientWidth && document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  // an hour of that day no task covers (the demo's tasks are placed by the day's date)
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`
  const taken = await Promise.all((await page.locator(`[data-cell="${day}"] [data-placed]`).all()).map((l) => l.boundingBox()))
  let hour = 0
  for (let h = 11; h <= 19 && !hour; h++) {
    const b = (await page.locator(`[data-slot="${day}T${hh(h)}"]`).boundingBox())!
    if (!taken.some((p) => p && p.y < b.y + b.height && b.y < p.y + p.height)) hour = h
  }
  expect(hour, 'a free hour between 11:00 and 19:00').toBeGreaterThan(0)
  const slot = page.locator(`[data-slot="${day}T${hh(hour)}"]`)
  expect((await slot.boundingBox())!.height).toBeGreaterThanOrEqual(44)
  await slot.click()
  await expect(panel.getByLabel('Start time')).toHaveValue(hh(hour))
  await expect(panel.getByLabel('End time')).toHaveValue(hh(hour + 1))
  await panel.getByLabel('Title').fill(`Slot ${tag}`)
  await panel.getByRole('button', { name: 'Add task' }).click()
  const slottedTask = page.locator(`[data-cell="${day}"] [data-placed]`, { hasText: `Slot ${tag}` })
  await expect(slottedTask).toBeVisible()
  await expect(panel).toHaveCount(0)
  const atHour = await page.locator(`[data-slot="${day}T${hh(hour)}"]`).boundingBox()
  const slotted = await slottedTask.boundingBox()
  expect(Math.abs(slotted!.y - atHour!.y)).toBeLessThan(2)
  const slotDoc = async () => (await database.store.find('greenleaf', 'sch_tasks', { title: `Slot ${tag}` }, 1))[0]
  const slotId = (await slotDoc())._id
  if (js) {
    // resize by dragging the bottom edge: an hour becomes two and a half (the same move post, snapped to the picker's step)
    // tall enough that the handle and the 1.5 hours below it are all in the window (pointer moves outside it are lost)
    await page.setViewportSize({ width: 800, height: 1600 })
    await page.locator(`[data-resize="${slotId}"]`).scrollIntoViewIfNeeded()
    const edge = (await page.locator(`[data-resize="${slotId}"]`).boundingBox())!
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2)
    await page.mouse.down()
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2 + HOUR_PX, { steps: 4 })
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2 + HOUR_PX * 1.5 + 1, { steps: 4 })
    await page.mouse.up()
    const local = (iso: string) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: tz }).format(new Date(iso))
    await expect.poll(async () => local(String((await slotDoc()).end))).toBe(`${String(hour + 2).padStart(2, '0')}:30`)
    expect(local(String((await slotDoc()).start))).toBe(hh(hour))
    await page.reload()
    await expect.poll(async () => Math.round((await slottedTask.boundingBox())!.height)).toBe(HOUR_PX * 2.5)
    // the keyboard's way to the same handle: focus it, arrows move the end by the picker's step, Enter saves
    const handle = page.locator(`[data-resize="${slotId}"]`)
    await handle.focus()
    await expect(handle).toHaveAttribute('role', 'slider')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    await expect(handle).toHaveAttribute('aria-valuetext', new RegExp(`^Ends ${String(hour + 2).padStart(2, '0')}:${String(30 - 2 * MINUTE_STEP).padStart(2, '0')}`))
    await page.keyboard.press('Enter')
    await expect.poll(async () => local(String((await slotDoc()).end))).toBe(`${String(hour + 2).padStart(2, '0')}:${String(30 - 2 * MINUTE_STEP).padStart(2, '0')}`)
    // Escape leaves it as it was
    await page.locator(`[data-resize="${slotId}"]`).focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Escape')
    await expect(page.locator(`[data-resize="${slotId}"]`)).toHaveAttribute('aria-valuetext', `Ends ${String(hour + 2).padStart(2, '0')}:${String(30 - 2 * MINUTE_STEP).padStart(2, '0')}`)
  } else {
    // without JavaScript there is no handle to drag: the form's end time is the way
    await expect(page.locator(`[data-resize="${slotId}"]`)).toHaveCount(0)
  }
  await page.setViewportSize({ width: 1280, height: 720 })

  // move by editing the dates
  const day2 = addDays(today, 2)
  await made.click()
  await page.getByTestId('task-panel').getByLabel('Day', { exact: true }).fill(day2)
  await page.getByTestId('task-panel').getByLabel('End day').fill(day2)
  await page.getByRole('button', { name: 'Move task' }).click()
  await expect(page.locator(`[data-cell="${day2}"] [data-task]`, { hasText: `Scout ${tag}` })).toBeVisible()
  await expect(page.locator(`[data-cell="${day}"] [data-task]`, { hasText: `Scout ${tag}` })).toHaveCount(0)
  if (js) {
    // and by dragging it to another day
    // the next day, or the one before when day2 is the week's last (both in the week view)
    const day3 = new Date(`${day2}T00:00:00Z`).getUTCDay() === 6 ? addDays(day2, -1) : addDays(day2, 1)
    await page.goto(`/SchCalendar?view=week&date=${day2}`)
    const from = page.locator(`[data-cell="${day2}"] [data-task]`, { hasText: `Scout ${tag}` })
    await from.dragTo(page.locator(`[data-cell="${day3}"]`), { targetPosition: { x: 20, y: 20 } })
    await expect
      .poll(async () => {
        const doc = (await database.store.find('greenleaf', 'sch_tasks', { title: `Scout ${tag}` }, 1))[0]
        return localDate(new Date(String(doc.start)), tz)
      })
      .toBe(day3)
    await page.reload()
    await expect(page.locator(`[data-cell="${day3}"] [data-task]`, { hasText: `Scout ${tag}` })).toBeVisible()
    // dropped on an hour of the grid (even where another task covers it: force), it starts then (its top where it was grabbed) and keeps its length
    // a window tall enough for the chip and the hour together: a page scrolled between press and release drops nothing
    await page.setViewportSize({ width: 1280, height: 1600 })
    const chip = page.locator(`[data-cell="${day3}"] [data-task]`, { hasText: `Scout ${tag}` })
    const to = FIRST_HOUR + 8 < LAST_HOUR ? FIRST_HOUR + 8 : LAST_HOUR - 1
    await chip.dragTo(page.locator(`[data-slot="${day3}T${String(to).padStart(2, '0')}:00"]`), { sourcePosition: { x: 10, y: 10 }, targetPosition: { x: 10, y: 10 }, force: true })
    const scout = async () => (await database.store.find('greenleaf', 'sch_tasks', { title: `Scout ${tag}` }, 1))[0]
    const at = (iso: unknown) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: tz }).format(new Date(String(iso)))
    await expect.poll(async () => at((await scout()).start)).toBe(`${String(to).padStart(2, '0')}:00`)
    expect(at((await scout()).end)).toBe(`${String(to + 1).padStart(2, '0')}:00`)
    expect(localDate(new Date(String((await scout()).start)), tz)).toBe(day3)
    await page.setViewportSize({ width: 1280, height: 720 })
  }

  // weekly on Mondays with one Monday skipped
  const start = addDays(today, 1)
  await page.goto(`/SchCalendar?view=agenda&date=${start}&new=${start}`)
  const p2 = page.getByTestId('task-panel')
  await p2.getByLabel('Title').fill(`Reservoir ${tag}`)
  await p2.getByLabel('Start time').fill('07:00')
  await p2.getByLabel('End time').fill('08:00')
  await p2.getByRole('combobox', { name: 'Repeat' }).selectOption('weekly')
  await p2.getByRole('checkbox', { name: 'MO' }).check()
  await p2.getByLabel('Until (optional)').fill(addDays(start, 27))
  await p2.getByRole('button', { name: 'Add task' }).click()
  const occ = page.locator('[data-task]', { hasText: `Reservoir ${tag}` })
  await expect(occ.first()).toBeVisible()
  const days = await occ.evaluateAll((els) => els.map((e) => e.getAttribute('data-day')!))
  expect(days.length).toBe(4)
  await occ.nth(1).click()
  await page.getByRole('button', { name: `Skip ${days[1]} only` }).click()
  await expect(page.locator('[data-task]', { hasText: `Reservoir ${tag}` })).toHaveCount(3)
  const shown = await page.locator('[data-task]', { hasText: `Reservoir ${tag}` }).evaluateAll((els) => els.map((e) => e.getAttribute('data-day')!))
  expect(shown).toEqual(days.filter((d) => d !== days[1]))

  // the .ics feed: my link, parsed, the same occurrences
  await page.getByText('My tasks in my phone’s calendar').click()
  await page.getByRole('button', { name: 'Make my link' }).click()
  const url = (await page.getByTestId('feed-url').textContent())!
  const res = await page.request.get(url)
  expect(res.status()).toBe(200)
  const cal = new ICAL.Component(ICAL.parse(await res.text()))
  const evs = cal.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c))
  const feedDays = evs.filter((e) => e.summary === `Reservoir ${tag}`).map((e) => localDate(e.startDate.toJSDate(), tz)).sort()
  expect(feedDays).toEqual(shown)
  expect(evs.filter((e) => e.summary === `Scout ${tag}`)).toHaveLength(1)

  // one day of the series on its own: the form's "Only this day" without JavaScript, the drag's dialog with it
  const mon = shown[1]
  const tue = addDays(mon, 1)
  const reservoir = (d: string) => page.locator(`[data-cell="${d}"] [data-task]`, { hasText: `Reservoir ${tag}` })
  if (js) {
    await page.goto(`/SchCalendar?view=week&date=${mon}`)
    await reservoir(mon).dragTo(page.locator(`[data-cell="${tue}"]`), { targetPosition: { x: 20, y: 20 } })
    const ask = page.getByTestId('scope-dialog')
    await expect(ask).toBeVisible()
    await expect(ask.getByRole('button', { name: 'Only this day' })).toBeFocused()
    await ask.getByRole('button', { name: 'Only this day' }).click()
    await expect.poll(async () => (await database.store.find('greenleaf', 'sch_tasks', { title: `Reservoir ${tag}` }, 5)).length).toBe(2)
    await page.reload()
  } else {
    await page.goto(`/SchCalendar?view=week&date=${mon}`)
    await reservoir(mon).click()
    const p3 = page.getByTestId('task-panel')
    await p3.getByLabel('Day', { exact: true }).fill(tue)
    await p3.getByLabel('End day').fill(tue)
    await p3.getByRole('radio', { name: /Only this day/ }).check()
    await p3.getByRole('button', { name: 'Move task' }).click()
  }
  await expect(reservoir(tue)).toHaveCount(1)
  await expect(reservoir(mon)).toHaveCount(0)
  const docs = await database.store.find('greenleaf', 'sch_tasks', { title: `Reservoir ${tag}` }, 5)
  const series = docs.find((d) => d.repeat)!
  const single = docs.find((d) => !d.repeat)!
  expect(String(series.except).split(',')).toEqual([days[1], mon].sort())
  expect(localDate(new Date(String(single.start)), tz)).toBe(tue)
  await expect(reservoir(tue)).toHaveAttribute('data-task', single._id)
  // the other days of the series stay where they were
  await page.goto(`/SchCalendar?view=agenda&date=${start}`)
  await expect(page.locator(`[data-task="${series._id}"]`)).toHaveCount(2)
})
