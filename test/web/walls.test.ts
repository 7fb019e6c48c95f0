/**
 * The Walls screen in a real browser (Debian's Chromium through playwright-core, against the built
 * executable): a setter (the climbs permission, not an admin) adds three climbs to a section from
 * the keyboard alone, prints their route cards (with the setters, then without them once the gym
 * hides its setters), strips a climb and resets the section, and the grade curve follows; staff
 * without the permission are offered no Walls. Screenshots at the desk's 1366x768, the tablet's
 * 1024x768 and as printed go to /tmp/walls-shots/.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { removeTempDirs, stopAll } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { textContrasts } from './contrast.ts'
import { todayIn } from '../../src/web/format.ts'

const ZONE = 'America/Denver'
const SHOTS = '/tmp/walls-shots'
const DAY_MS = 86_400_000
const DESK = { width: 1366, height: 768 }
const TABLET = { width: 1024, height: 768 }

let desk: DeskUnderTest
let setterToken: string
const staff: Record<string, number> = {}
const grades: Record<string, number> = {}
const sections: Record<string, number> = {}

const today = todayIn(ZONE)
const daysAgo = (n: number) =>
  new Date(Date.parse(`${today}T12:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10)

/** A staff member with a name (the cards print it), allowed only what `granted` says: their token. */
async function namedStaff(first: string, last: string, granted: Parameters<DeskUnderTest['staffToken']>[2]) {
  const email = `${first.toLowerCase()}@crag.example`
  const token = await desk.staffToken(email, `${first.toLowerCase()}-password-9`, granted)
  const [user] = (await desk.api('GET', `/api/users/?search=${email}`, undefined, 200)).results
  await desk.api('PATCH', `/api/users/${user.id}/`, { first_name: first, last_name: last }, 200)
  staff[first] = user.id
  return token
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  desk = await startDesk({ email: 'walls@crag.example', password: 'correct-horse-battery-9', gym: 'Crag' })
  setterToken = await namedStaff('Ana', 'Lopez', ['can_manage_climbs'])
  await namedStaff('Ben', 'Okafor', ['can_manage_climbs'])

  const scale = await desk.api(
    'POST',
    '/api/gyms/1/grades/load-scale/',
    { system: 'V', discipline: 'BOU' },
    201,
  )
  for (const grade of scale) grades[grade.name] = grade.id
  const targets: Record<string, number> = { V0: 3, V1: 3, V2: 3, V3: 2, V4: 2, V5: 2, V6: 1 }
  for (const [name, target_count] of Object.entries(targets))
    await desk.api('PATCH', `/api/gyms/1/grades/${grades[name]}/`, { target_count }, 200)
  for (const [name, sort_order] of [
    ['The Cave', 1],
    ['Slab Wall', 2],
  ] as const)
    sections[name] = (
      await desk.api('POST', '/api/gyms/1/sections/', { name, discipline: 'BOU', sort_order }, 201)
    ).id

  // Two climbs up on the slab already, the newer one Ana's: the screen opens at it. Ben set the
  // older one, so the stats name him: a setter who is no admin may not list the staff.
  const climb = (grade: string, hold_color: string, set_date: string, setter: string) =>
    desk.api(
      'POST',
      '/api/gyms/1/climbs/',
      {
        section_id: sections['Slab Wall'],
        grade_id: grades[grade],
        discipline: 'BOU',
        hold_color,
        setter_ids: [staff[setter]],
        set_date,
      },
      201,
    )
  await climb('V2', 'orange', daysAgo(10), 'Ben')
  await climb('V5', 'black', daysAgo(3), 'Ana')
})

afterAll(async () => {
  await desk?.browser.close()
  await stopAll()
  removeTempDirs()
})

/** window.print records that it was called, instead of opening the print dialog. */
const NO_PRINT_DIALOG = 'window.__printed = 0; window.print = () => { window.__printed += 1 }'

async function openWalls(token = setterToken): Promise<Page> {
  const page = await openLoggedIn(desk, token, { beforePage: NO_PRINT_DIALOG })
  await page.setViewportSize(DESK)
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Walls' }).click()
  await page.getByRole('form', { name: 'Add a climb' }).waitFor()
  return page
}

const focusedName = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('name') ?? '')

/** The grade curve's line, and its table's rows (grade, up, against target) as the chart is given them. */
const curve = async (page: Page) => ({
  summary: await page.locator('.curve-summary').innerText(),
  rows: await page
    .locator('.grade-curve tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent))),
})

const climbsIn = async (section: string) =>
  (await desk.api('GET', `/api/gyms/1/climbs/?section_id=${sections[section]}&is_up=true`, undefined, 200))
    .results

async function shoot(page: Page, name: string) {
  for (const size of [DESK, TABLET]) {
    await page.setViewportSize(size)
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png` })
  }
  await page.setViewportSize(DESK)
}

/**
 * The cards as printed: the page in print media, its screenshot, and each card's text. Nothing of
 * the screen is printed but the cards: the bar, the form and the lists take no room.
 */
async function printedCards(page: Page, name: string): Promise<string[]> {
  await page.emulateMedia({ media: 'print' })
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
  const boxes = await page
    .locator('.bar, .walls-top, .walls-body, .route-cards')
    .evaluateAll((els) => els.map((el) => `${el.className} ${el.getClientRects().length > 0}`))
  expect(boxes).toEqual(['bar false', 'walls-top false', 'walls-body false', 'route-cards true'])
  const cards = await page.locator('.route-card').allInnerTexts()
  await page.emulateMedia({ media: 'screen' })
  return cards
}

test('a setter adds three climbs to a section with the keyboard alone, and prints their cards', async () => {
  const page = await openWalls()
  // It opens at the newest climb: its section, grade, colour and setters; the grade has the focus.
  await page.locator('.section-item[aria-current="true"]', { hasText: 'Slab Wall' }).waitFor()
  expect(await focusedName(page)).toBe('grade')
  const form = page.getByRole('form', { name: 'Add a climb' })
  expect(await form.getByLabel('Colour').inputValue()).toBe('black')
  expect(await form.getByRole('checkbox', { name: 'Ana Lopez' }).isChecked()).toBe(true)
  expect(await form.getByRole('checkbox', { name: 'Ben Okafor' }).isChecked()).toBe(false)
  const before = await curve(page)
  expect(before.summary).toBe(
    '2 boulders up of 16 aimed for; most short: V0 by 3, V1 by 3, V2 by 2 and 4 more grades.',
  )
  await shoot(page, 'opened')

  // The section is a Shift+Tab back; Enter on it goes on to the grade.
  await page.keyboard.press('Shift+Tab')
  expect(await focusedName(page)).toBe('section')
  await page.keyboard.type('The C')
  await page.keyboard.press('Enter')
  expect(await focusedName(page)).toBe('grade')
  await page.locator('.section-item[aria-current="true"]', { hasText: 'The Cave' }).waitFor()

  const status = page.getByRole('status')
  // Grade, Tab, colour, Enter.
  await page.keyboard.type('V4')
  await page.keyboard.press('Tab')
  await page.keyboard.type('teal')
  await page.keyboard.press('Enter')
  await status.filter({ hasText: 'Added V4 teal to The Cave.' }).waitFor()
  expect(await focusedName(page)).toBe('grade')

  // "V1" is V1, not V10, though V4 is chosen now.
  await page.keyboard.type('V1')
  await page.keyboard.press('Tab')
  await page.keyboard.type('pink')
  await page.keyboard.press('Enter')
  await status.filter({ hasText: 'Added V1 pink to The Cave.' }).waitFor()

  // A name, and Ben ticked as a second setter: Enter on his tick adds.
  await page.keyboard.type('V6')
  await page.keyboard.press('Tab')
  await page.keyboard.type('yellow')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  expect(await focusedName(page)).toBe('name')
  await page.keyboard.type('Crimp City')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Space')
  await page.keyboard.press('Enter')
  await status.filter({ hasText: 'Added V6 yellow “Crimp City” to The Cave.' }).waitFor()

  const added = await climbsIn('The Cave')
  expect(
    added.map((c: any) => [c.grade_name, c.hold_color, c.color_hex, c.name, c.setter_names, c.set_date]),
  ).toEqual([
    ['V6', 'yellow', '#F5D300', 'Crimp City', ['Ana Lopez', 'Ben Okafor'], today],
    ['V1', 'pink', '#F06FB0', '', ['Ana Lopez'], today],
    ['V4', 'teal', '#14998F', '', ['Ana Lopez'], today],
  ])
  expect((await curve(page)).summary).toBe(
    '5 boulders up of 16 aimed for; most short: V0 by 3, V1 by 2, V2 by 2 and 3 more grades.',
  )
  expect(await page.locator('.climbs .climb-words').allInnerTexts()).toEqual([
    'yellow “Crimp City”',
    'pink',
    'teal',
  ])
  await shoot(page, 'added')

  // The cards of the climbs set today are ticked: all three print, setters and all.
  await page.getByRole('button', { name: 'Print 3 cards' }).click()
  expect(await page.evaluate(() => (globalThis as any).__printed)).toBe(1)
  const cards = await printedCards(page, 'print')
  const set = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(
    new Date(`${today}T12:00:00Z`),
  )
  expect(cards.map((card) => card.split('\n').filter((line) => line.trim() !== ''))).toEqual([
    ['V6', 'Yellow', 'Crimp City', 'The Cave', `Set ${set}`, 'Set by Ana Lopez, Ben Okafor'],
    ['V1', 'Pink', 'The Cave', `Set ${set}`, 'Set by Ana Lopez'],
    ['V4', 'Teal', 'The Cave', `Set ${set}`, 'Set by Ana Lopez'],
  ])
  // Unticked, a card is not printed.
  await page.getByRole('checkbox', { name: 'Print the card of V1 pink' }).uncheck()
  await page.getByRole('button', { name: 'Print 2 cards' }).waitFor()
  expect((await printedCards(page, 'print-two')).map((card) => card.split('\n')[0])).toEqual(['V6', 'V4'])
})

test('with the setters hidden, the cards leave them out', async () => {
  await desk.api('PATCH', '/api/gyms/1/', { hide_setter: true }, 200)
  try {
    const page = await openWalls()
    await page.locator('.section-item[aria-current="true"]', { hasText: 'The Cave' }).waitFor()
    await page.getByText('The cards leave the setters out: the gym keeps them hidden.').waitFor()
    const cards = await printedCards(page, 'print-setters-hidden')
    expect(cards).toHaveLength(3)
    for (const card of cards) {
      expect(card).not.toContain('Set by')
      expect(card).not.toContain('Ana Lopez')
    }
    expect(cards[0]).toContain('Crimp City')
  } finally {
    await desk.api('PATCH', '/api/gyms/1/', { hide_setter: false }, 200)
  }
})

test('a climb is stripped and a section reset, each asked first; the grade curve follows', async () => {
  const page = await openWalls()
  const status = page.getByRole('status')
  await page.getByRole('button', { name: /^Slab Wall/ }).click()
  await page.getByRole('heading', { name: 'Slab Wall', level: 2 }).waitFor()

  // Strip asks; Esc keeps it up.
  await page.getByRole('button', { name: 'Strip V2 orange' }).click()
  await page.getByRole('group', { name: 'Strip V2 orange? It comes down today.' }).waitFor()
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Strip V2 orange' }).and(page.locator(':focus')).waitFor()
  expect(await climbsIn('Slab Wall')).toHaveLength(2)
  await page.getByRole('button', { name: 'Strip V2 orange' }).click()
  await page.getByRole('button', { name: 'Yes, strip it' }).click()
  await status.filter({ hasText: 'V2 orange is stripped.' }).waitFor()
  expect((await climbsIn('Slab Wall')).map((c: any) => c.grade_name)).toEqual(['V5'])

  await page.getByRole('button', { name: /^The Cave/ }).click()
  await page.getByRole('heading', { name: 'The Cave', level: 2 }).waitFor()
  const before = await curve(page)
  expect(before.rows.slice(0, 7)).toEqual([
    ['V0', '0 of 3', '3 short'],
    ['V1', '1 of 3', '2 short'],
    ['V2', '0 of 3', '3 short'],
    ['V3', '0 of 2', '2 short'],
    ['V4', '1 of 2', '1 short'],
    ['V5', '1 of 2', '1 short'],
    ['V6', '1 of 1', ''],
  ])

  await page.getByRole('button', { name: 'Reset The Cave' }).click()
  const question = page.getByRole('group', { name: /^Reset The Cave\?/ })
  expect(await question.locator('p').innerText()).toBe(
    'Reset The Cave? All 3 climbs up in it come down today.',
  )
  await shoot(page, 'reset-asked')
  await page.getByRole('button', { name: 'Yes, reset it' }).click()
  await status.filter({ hasText: 'The Cave is reset: 3 climbs came down.' }).waitFor()
  expect(await climbsIn('The Cave')).toEqual([])
  await page.getByText('No climbs are up in The Cave.').waitFor()
  expect(await page.locator('.section-item', { hasText: 'The Cave' }).innerText()).toContain(
    `No climbs up · reset ${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' }).format(new Date(`${today}T12:00:00Z`))}`,
  )

  const after = await curve(page)
  expect(after.summary).toBe(
    '1 boulder up of 16 aimed for; most short: V0 by 3, V1 by 3, V2 by 3 and 4 more grades.',
  )
  expect(after.rows.slice(0, 7)).toEqual([
    ['V0', '0 of 3', '3 short'],
    ['V1', '0 of 3', '3 short'],
    ['V2', '0 of 3', '3 short'],
    ['V3', '0 of 2', '2 short'],
    ['V4', '0 of 2', '2 short'],
    ['V5', '1 of 2', '1 short'],
    ['V6', '0 of 1', '1 short'],
  ])
  await shoot(page, 'reset')
})

test('at the tablet every control is at least 40 px tall, the text keeps its contrast, nothing is cut', async () => {
  const page = await openWalls()
  await page.setViewportSize(TABLET)
  await page.getByRole('button', { name: /^Slab Wall/ }).click()
  await page.locator('.climbs li').first().waitFor()
  const heights = await page
    .locator('main button, main select, main input:not([type="checkbox"]), main summary, main label.tick')
    .evaluateAll((els) =>
      els
        .filter((el) => el.getClientRects().length > 0)
        .map((el) => Math.round(el.getBoundingClientRect().height)),
    )
  expect(heights.length).toBeGreaterThan(10)
  expect(heights.filter((h) => h < 40)).toEqual([])
  expect(
    await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth),
  ).toBeLessThanOrEqual(1024)
  const low = (
    await textContrasts(
      page.locator('.walls button, .walls p, .walls label, .walls h2, .walls h3, .walls span'),
    )
  ).filter((t) => t.text.trim() !== '' && t.ratio < 4.5)
  expect(low).toEqual([])
})

test('staff without the climbs permission are offered no Walls; an admin is', async () => {
  const members = await namedStaff('Cleo', 'Desk', ['can_manage_members'])
  const page = await openLoggedIn(desk, members)
  await page.getByRole('button', { name: 'Customers' }).waitFor()
  const menu = page.getByRole('navigation', { name: 'Screens' }).getByRole('button')
  expect(await menu.allInnerTexts()).not.toContain('Walls')

  const admin = await openLoggedIn(desk, desk.token)
  await admin.getByRole('button', { name: 'Customers' }).waitFor()
  expect(
    await admin.getByRole('navigation', { name: 'Screens' }).getByRole('button').allInnerTexts(),
  ).toContain('Walls')
})
