/**
 * The Classes screen in a real browser (Debian's Chromium through playwright-core, against the
 * built executable): a customer booked from the desk with the class's questions answered (a
 * required one asked for before anything is sent), checked in as an attendee by the door's rules,
 * a customer added to a full class's waitlist, and a cancelled booking whose spot goes to the first
 * waiting customer. Screenshots at the desk's 1366x768 and the tablet's 1024x768 go to
 * /tmp/classes-*.png.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { removeTempDirs, stopAll } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { textContrasts } from './contrast.ts'
import { todayIn } from '../../src/web/format.ts'

const ZONE = 'America/Denver'
const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
const SEARCH_LABEL = 'Name, email or barcode, or phone'
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
]

let desk: DeskUnderTest
/** The class on now (booking still open): Alex is booked onto it and checked in. */
let beginner: { id: number }
/** One spot, taken by Lynn, with Tommy waiting, starting three hours from now. */
let clinic: { id: number; start_at: string }
const customers: Record<string, number> = {}
/** Beginner Belay's required question. */
let belayedBefore: number

const iso = (ms: number) => new Date(ms).toISOString()

async function customer(first: string, last: string, barcode: string): Promise<number> {
  const c = await desk.api(
    'POST',
    '/api/customers/',
    { first_name: first, last_name: last, birthday: '1990-05-01', barcode },
    201,
  )
  await desk.api('POST', `/api/customers/${c.id}/documents/`, { name: 'Waiver' }, 201)
  customers[last] = c.id
  return c.id
}

beforeAll(async () => {
  desk = await startDesk({ email: 'classes@crag.example', password: 'correct-horse-battery-9', gym: 'Crag' })
  for (const [first, last, barcode] of [
    ['Alex', 'Honnold', 'AH-1'],
    ['Lynn', 'Hill', 'LH-2'],
    ['Tommy', 'Caldwell', 'TC-3'],
    ['Sasha', 'DiGiulian', 'SD-4'],
  ] as const)
    await customer(first, last, barcode)

  const belayType = await desk.api(
    'POST',
    '/api/event-types/',
    { name: 'Beginner Belay', gym_id: 1, status: 'ACT', late_booking_window_minutes: 45 },
    201,
  )
  const ask = (question: object) =>
    desk.api('POST', `/api/event-types/${belayType.id}/questions/`, question, 201)
  belayedBefore = (
    await ask({ text: 'Have you belayed before?', kind: 'BOO', is_required: true, sort_order: 1 })
  ).id
  await ask({ text: 'Harness size', kind: 'CHO', choices: ['S', 'M', 'L'], sort_order: 2 })
  await ask({ text: 'Retired question', kind: 'TXT', is_active: false, sort_order: 3 })
  const now = Date.now()
  // On now, so the door takes the entry from the reservation (EVE).
  beginner = await desk.api(
    'POST',
    '/api/events/',
    {
      event_type_id: belayType.id,
      start_at: iso(now - 2 * MINUTE_MS),
      end_at: iso(now + HOUR_MS),
      capacity: 12,
    },
    201,
  )

  const clinicType = await desk.api(
    'POST',
    '/api/event-types/',
    { name: 'Lead Clinic', gym_id: 1, status: 'ACT' },
    201,
  )
  // More than the type's two hours of cutoff away: a spot opening goes to the first waiting.
  clinic = await desk.api(
    'POST',
    '/api/events/',
    {
      event_type_id: clinicType.id,
      start_at: iso(now + 3 * HOUR_MS),
      end_at: iso(now + 4 * HOUR_MS),
      capacity: 1,
    },
    201,
  )
  await desk.api('POST', '/api/reservations/', { event_id: clinic.id, customer_id: customers.Hill }, 201)
  await desk.api(
    'POST',
    '/api/waitlist-entries/',
    { event_id: clinic.id, customer_id: customers.Caldwell },
    201,
  )
})

afterAll(async () => {
  await desk?.browser.close()
  await stopAll()
  removeTempDirs()
})

async function openClasses(token = desk.token): Promise<Page> {
  const page = await openLoggedIn(desk, token)
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Classes' }).click()
  await page.getByRole('group', { name: 'Day' }).waitFor()
  return page
}

/** The day button an event a few hours away is under: today, or tomorrow late in the evening. */
const dayOf = (event: { start_at: string }) =>
  todayIn(ZONE) === new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(event.start_at))
    ? 'Today'
    : 'Tomorrow'

/** Finds a customer in the booking's search and chooses them from its matches. */
async function chooseCustomer(page: Page, typed: string, name: string) {
  await page.getByRole('searchbox', { name: SEARCH_LABEL }).fill(typed)
  await page.locator('.class-booking .matches').getByRole('button', { name }).click()
}

const rosterNames = (page: Page, list: 'roster-heading' | 'waitlist-heading') =>
  page.locator(`section[aria-labelledby="${list}"] > .roster > li .name`).allInnerTexts()

const shoot = async (page: Page, name: string) => {
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await page.screenshot({ path: `/tmp/classes-${name}-${size.width}.png` })
  }
}

test('a customer is booked with the questions answered, then checked in as an attendee', async () => {
  const page = await openClasses()
  // The class on now is shown first.
  const item = page.getByRole('button', { name: /Beginner Belay/ })
  await page.locator('button.class-item[aria-current="true"]', { hasText: 'Beginner Belay' }).waitFor()
  expect(await item.innerText()).toContain('12 of 12 left')

  await chooseCustomer(page, 'Honnold', 'Alex Honnold')
  // Only the active questions, the required one saying so.
  const booking = page.locator('.booking-form')
  expect(await booking.locator('label').allInnerTexts()).toEqual([
    expect.stringContaining('Have you belayed before? (required)'),
    expect.stringContaining('Harness size'),
  ])
  expect(
    await page
      .getByLabel('Have you belayed before? (required)')
      .evaluate((el) => el === (el as any).ownerDocument.activeElement),
  ).toBe(true)

  // The required question unanswered: asked for here, and nothing is sent.
  await page.getByLabel('Harness size').selectOption('M')
  await page.getByRole('button', { name: 'Book', exact: true }).click()
  await page.getByText('This question needs an answer.').waitFor()
  const none = await desk.api('GET', `/api/reservations/?event_id=${beginner.id}`, undefined, 200)
  expect(none.count).toBe(0)
  await shoot(page, 'booking')

  await page.getByLabel('Have you belayed before? (required)').selectOption('yes')
  await page.getByRole('button', { name: 'Book', exact: true }).click()
  await page.getByRole('status').filter({ hasText: 'Alex Honnold is booked on Beginner Belay.' }).waitFor()
  expect(await rosterNames(page, 'roster-heading')).toEqual(['Alex Honnold'])
  expect(await page.locator('.roster .answers').innerText()).toBe(
    'Have you belayed before? Yes · Harness size: M',
  )
  expect(await item.innerText()).toContain('11 of 12 left')
  const [booked] = (await desk.api('GET', `/api/reservations/?event_id=${beginner.id}`, undefined, 200))
    .results
  expect(booked.answers.map((a: { answer: unknown }) => a.answer)).toEqual([true, 'M'])

  // Checked in by the door's rules: the card, the roster's state, the reservation and an EVE check-in.
  await page.getByRole('button', { name: 'Check in Alex Honnold' }).click()
  const card = page.getByRole('region', { name: 'Check-in result' })
  await card.getByText('Checked in', { exact: true }).waitFor()
  expect(await card.innerText()).toContain('Beginner Belay')
  await page.locator('.roster .checked-in').getByText('Checked in').waitFor()
  expect(await page.getByRole('button', { name: 'Check in Alex Honnold' }).count()).toBe(0)
  await shoot(page, 'checked-in')
  const reservation = await desk.api('GET', `/api/reservations/${booked.id}/`, undefined, 200)
  expect(reservation.checked_in).toBe(true)
  const checkIns = await desk.api('GET', `/api/customers/${customers.Honnold}/check-ins/`, undefined, 200)
  expect(checkIns.results.map((c: { entry_method: string }) => c.entry_method)).toEqual(['EVE'])
})

test('a check-in the door refuses marks nothing: the red card says why and the button stays', async () => {
  const chris = await desk.api(
    'POST',
    '/api/customers/',
    { first_name: 'Chris', last_name: 'Sharma', birthday: '1981-04-23' },
    201,
  )
  // No waiver on file: the door refuses him.
  const reservation = await desk.api(
    'POST',
    '/api/reservations/',
    {
      event_id: beginner.id,
      customer_id: chris.id,
      answers: [{ question_id: belayedBefore, answer: false }],
    },
    201,
  )

  const page = await openClasses()
  await page.getByRole('button', { name: 'Check in Chris Sharma' }).click()
  const card = page.getByRole('region', { name: 'Check-in result' })
  await card.getByText('Not checked in').waitFor()
  expect(await card.innerText()).toContain('No signed waiver.')
  await card.getByRole('button', { name: 'Sign waiver' }).waitFor()
  // The card shows before the roster is read again; the roster's buttons wait for that read.
  const checkIn = page.getByRole('button', { name: 'Check in Chris Sharma' })
  await page.getByRole('button', { name: 'Check in Chris Sharma', disabled: false }).waitFor()
  expect(await checkIn.isEnabled()).toBe(true)
  expect((await desk.api('GET', `/api/reservations/${reservation.id}/`, undefined, 200)).checked_in).toBe(
    false,
  )
  await shoot(page, 'refused')
  await card.getByRole('button', { name: 'Dismiss' }).click()
  await card.waitFor({ state: 'detached' })
})

test('a full class takes a customer on its waitlist; a cancelled booking goes to the first waiting', async () => {
  const page = await openClasses()
  await page
    .getByRole('group', { name: 'Day' })
    .getByRole('button', { name: dayOf(clinic) })
    .click()
  const item = page.getByRole('button', { name: /Lead Clinic/ })
  await item.click()
  expect(await item.innerText()).toContain('Full · Waitlist 1')
  await page.locator('#roster-heading').getByText('Booked (1)').waitFor()
  expect(await rosterNames(page, 'roster-heading')).toEqual(['Lynn Hill'])
  expect(await rosterNames(page, 'waitlist-heading')).toEqual(['1.Tommy Caldwell'])
  // Not the clinic's day to check in unless it is today; never a Check in for a later day.
  if (dayOf(clinic) === 'Tomorrow')
    expect(await page.getByRole('button', { name: 'Check in Lynn Hill' }).count()).toBe(0)

  // Full: the booking puts Sasha on the waitlist, after Tommy.
  await page.getByRole('heading', { name: 'Add a customer to the waitlist' }).waitFor()
  await chooseCustomer(page, 'DiGiulian', 'Sasha DiGiulian')
  await page.getByRole('button', { name: 'Add to waitlist' }).click()
  await page
    .getByRole('status')
    .filter({ hasText: 'Sasha DiGiulian is on the waitlist for Lead Clinic.' })
    .waitFor()
  await page.locator('#waitlist-heading').getByText('Waitlist (2)').waitFor()
  expect(await rosterNames(page, 'waitlist-heading')).toEqual(['1.Tommy Caldwell', '2.Sasha DiGiulian'])

  // Cancel asks first; Keep (or Esc) leaves the booking.
  await page.getByRole('button', { name: "Cancel Lynn Hill's booking" }).click()
  const question = page.locator('.confirm')
  expect(await question.innerText()).toContain(
    "Cancel Lynn Hill's booking? The spot goes to Tommy Caldwell, first on the waitlist.",
  )
  expect(
    await page
      .getByRole('button', { name: 'Keep' })
      .evaluate((el) => el === (el as any).ownerDocument.activeElement),
  ).toBe(true)
  await shoot(page, 'cancel')
  await page.keyboard.press('Escape')
  await question.waitFor({ state: 'detached' })
  await page.getByRole('button', { name: "Cancel Lynn Hill's booking" }).and(page.locator(':focus')).waitFor()
  expect(await rosterNames(page, 'roster-heading')).toEqual(['Lynn Hill'])

  await page.getByRole('button', { name: "Cancel Lynn Hill's booking" }).click()
  await page.getByRole('button', { name: 'Yes, cancel it' }).click()
  await page
    .getByRole('status')
    .filter({ hasText: "Lynn Hill's booking is cancelled. Tommy Caldwell has the spot, from the waitlist." })
    .waitFor()
  expect(await rosterNames(page, 'roster-heading')).toEqual(['Tommy Caldwell'])
  expect(await rosterNames(page, 'waitlist-heading')).toEqual(['1.Sasha DiGiulian'])
  expect(await page.locator('.cancelled-bookings summary').innerText()).toBe('Cancelled bookings (1)')
  expect(await item.innerText()).toContain('Full · Waitlist 1')
  await shoot(page, 'promoted')

  const live = await desk.api('GET', `/api/reservations/?event_id=${clinic.id}`, undefined, 200)
  expect(
    live.results.map((r: { customer_id: number; is_cancelled: boolean }) => [r.customer_id, r.is_cancelled]),
  ).toEqual([
    [customers.Hill, true],
    [customers.Caldwell, false],
  ])
})

test("the API's refusal shows in its words, never as a code", async () => {
  const page = await openClasses()
  // Alex is already booked on the class on now.
  await chooseCustomer(page, 'Honnold', 'Alex Honnold')
  await page.getByLabel('Have you belayed before? (required)').selectOption('no')
  await page.getByRole('button', { name: 'Book', exact: true }).click()
  const alert = page.locator('.booking-form .error[role="alert"]')
  await alert.waitFor()
  expect(await alert.innerText()).toBe('This customer already has a reservation for this event.')
  expect((await textContrasts(alert)).filter((t) => t.ratio < 4.5)).toEqual([])

  // A full class offers no Promote: the API would refuse it.
  await page
    .getByRole('group', { name: 'Day' })
    .getByRole('button', { name: dayOf(clinic) })
    .click()
  await page.getByRole('button', { name: /Lead Clinic/ }).click()
  await page.getByText('Promote shows once a spot is free.').waitFor()
  expect(await page.getByRole('button', { name: /^Promote / }).count()).toBe(0)
})

test('within the cutoff a freed spot waits for staff: promoted by hand', async () => {
  const type = await desk.api(
    'POST',
    '/api/event-types/',
    { name: 'Youth Team', gym_id: 1, status: 'ACT' },
    201,
  )
  const now = Date.now()
  // An hour away: within the type's two hours, so nobody moves up by themselves.
  const team = await desk.api(
    'POST',
    '/api/events/',
    { event_type_id: type.id, start_at: iso(now + HOUR_MS), end_at: iso(now + 2 * HOUR_MS), capacity: 1 },
    201,
  )
  await desk.api('POST', '/api/reservations/', { event_id: team.id, customer_id: customers.Hill }, 201)
  await desk.api(
    'POST',
    '/api/waitlist-entries/',
    { event_id: team.id, customer_id: customers.DiGiulian },
    201,
  )

  const page = await openClasses()
  await page
    .getByRole('group', { name: 'Day' })
    .getByRole('button', { name: dayOf(team) })
    .click()
  await page.getByRole('button', { name: /Youth Team/ }).click()
  await page.getByRole('button', { name: "Cancel Lynn Hill's booking" }).click()
  expect(await page.locator('.confirm').innerText()).toContain(
    'The waitlist does not move up by itself this close to the start: promote by hand.',
  )
  await page.getByRole('button', { name: 'Yes, cancel it' }).click()
  await page.getByRole('status').filter({ hasText: "Lynn Hill's booking is cancelled." }).waitFor()
  expect(await page.getByRole('status').innerText()).not.toContain('has the spot')
  expect(await rosterNames(page, 'roster-heading')).toEqual([])
  expect(await page.getByRole('button', { name: /Youth Team/ }).innerText()).toContain(
    '1 of 1 left · Waitlist 1',
  )

  await page.getByRole('button', { name: 'Promote Sasha DiGiulian' }).click()
  await page
    .getByRole('status')
    .filter({ hasText: 'Sasha DiGiulian is booked on Youth Team, from the waitlist.' })
    .waitFor()
  expect(await rosterNames(page, 'roster-heading')).toEqual(['Sasha DiGiulian'])
  await page.getByText('Nobody is waiting.').waitFor()
  const [entry] = (await desk.api('GET', `/api/waitlist-entries/?event_id=${team.id}`, undefined, 200))
    .results
  expect(entry.status).toBe('PRO')
})

test('every control is at least 44 px tall at the tablet size, and the text keeps its contrast', async () => {
  const page = await openClasses()
  await page.setViewportSize({ width: 1024, height: 768 })
  await page.getByRole('button', { name: /Beginner Belay/ }).click()
  await page.locator('#roster-heading').waitFor()
  const heights = await page
    .locator('main button, main select, main input, main summary')
    .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().height)))
  expect(heights.length).toBeGreaterThan(8)
  expect(heights.filter((h) => h < 44)).toEqual([])
  const low = (
    await textContrasts(page.locator('.classes button, .classes p, .classes li, .classes h2'))
  ).filter((t) => t.ratio < 4.5)
  expect(low).toEqual([])
  await shoot(page, 'day')
})

test('with every screen and the PIN mode badge, the bar still fits the tablet', async () => {
  const email = 'pin-admin@crag.example'
  const key = await desk.staffToken(email, 'pin-admin-password-9', ['is_organization_admin'])
  const [user] = (await desk.api('GET', `/api/users/?search=${email}`, undefined, 200)).results
  await desk.api('PATCH', `/api/users/${user.id}/`, { pin_mode_required: true }, 200)
  const page = await openLoggedIn(desk, key)
  await page.setViewportSize({ width: 1024, height: 768 })
  await page.locator('.pin-mode').waitFor()
  expect(
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button').allInnerTexts(),
  ).toContain('Classes')
  const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(1024)
  // The gym's name and the organization's are whole, not cut short.
  const cut = await page
    .locator('.bar .gym, .bar .brand')
    .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent))
  expect(cut).toEqual([])
  await page.screenshot({ path: '/tmp/classes-bar-pin-1024.png' })
})

test('staff who manage events but not members book without checking in; others see no Classes', async () => {
  const events = await desk.staffToken('events@crag.example', 'events-only-password-9', ['can_manage_events'])
  const page = await openClasses(events)
  await page.getByRole('button', { name: /Beginner Belay/ }).click()
  await page.getByText('Checking customers in needs the manage-members permission.').waitFor()
  expect(await page.locator('.roster button', { hasText: 'Check in' }).count()).toBe(0)

  const members = await desk.staffToken('members@crag.example', 'members-only-password-9', [
    'can_manage_members',
  ])
  const other = await openLoggedIn(desk, members)
  const menu = other.getByRole('navigation', { name: 'Screens' }).getByRole('button')
  await other.getByRole('button', { name: 'Customers' }).waitFor()
  expect(await menu.allInnerTexts()).not.toContain('Classes')
})

test('the keyboard alone: the list by arrows, a customer found and booked with Tab and Enter', async () => {
  const page = await openClasses()
  const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.textContent ?? '')
  await page.locator('button.class-item[aria-current="true"]', { hasText: 'Beginner Belay' }).waitFor()
  // The search box has the focus once a class shows: the name is typed straight away.
  await page.getByRole('searchbox', { name: SEARCH_LABEL }).and(page.locator(':focus')).waitFor()
  await page.keyboard.type('Caldwell')
  await page.locator('.class-booking .matches button.match').waitFor()
  await page.keyboard.press('ArrowDown')
  expect(await focused()).toContain('Tommy Caldwell')
  await page.keyboard.press('Enter')
  // Chosen: the first question has the focus.
  await page.getByLabel('Have you belayed before? (required)').and(page.locator(':focus')).waitFor()
  await page.keyboard.press('ArrowDown')
  expect(await page.getByLabel('Have you belayed before? (required)').inputValue()).toBe('yes')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  expect(await focused()).toBe('Book')
  await page.keyboard.press('Enter')
  await page.getByRole('status').filter({ hasText: 'Tommy Caldwell is booked on Beginner Belay.' }).waitFor()

  // Up and down walk the day's classes; Enter opens one.
  await page.locator('button.class-item', { hasText: 'Beginner Belay' }).focus()
  if ((await page.locator('button.class-item').count()) > 1) {
    await page.keyboard.press('ArrowDown')
    const next = await page.evaluate(
      () => (globalThis as any).document.activeElement.querySelector('.class-name')?.textContent ?? '',
    )
    expect(['', 'Beginner Belay']).not.toContain(next)
    await page.keyboard.press('Enter')
    await page.locator('button.class-item[aria-current="true"]', { hasText: next }).waitFor()
    await page.getByRole('heading', { name: next, level: 2 }).waitFor()
  }
})

test('a class past its booking window offers no booking, and says when it closed', async () => {
  const type = await desk.api(
    'POST',
    '/api/event-types/',
    { name: 'Morning Yoga', gym_id: 1, status: 'ACT' },
    201,
  )
  // Started 20 minutes ago: the type's default window of 15 minutes has passed.
  const start = Date.now() - 20 * MINUTE_MS
  await desk.api(
    'POST',
    '/api/events/',
    { event_type_id: type.id, start_at: iso(start), end_at: iso(start + HOUR_MS) },
    201,
  )
  const page = await openClasses()
  await page.getByRole('button', { name: /Morning Yoga/ }).click()
  const closedAt = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(start + 15 * MINUTE_MS))
  await page.getByText(`Booking closed at ${closedAt}.`).waitFor()
  expect(await page.getByRole('searchbox', { name: SEARCH_LABEL }).count()).toBe(0)
})
