/**
 * The evening walk-through, counted: a walk-in signed up, their waiver signed on the tablet, a day
 * pass sold and the walk-in checked in, as desk staff do it in Debian's Chromium (1366x768) against
 * the built executable. Every click and every key press is counted, the desk's apart from the
 * customer's own at the tablet, and the whole walk is timed.
 *
 *   npx bun run test/bench/evening-walk.ts        (or `npm run bench -- evening-walk`)
 *
 * The staff's path is the shortest the page offers, from the keyboard where that is shorter: the
 * walk-in form typed field to field, the waiver screen opened from the new customer, the red card's
 * "Sell a day pass", the quick-sale button, the payment the page fills in, and "Check in" on the
 * receipt. Asserts nothing about time; fails if a step does not reach what it should.
 */
import type { Page } from 'playwright-core'
import { removeTempDirs, stopAll } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk } from '../web/browser.ts'
import { drawSignature } from '../web/waiver-pad.ts'

const desk = await startDesk({ email: 'walk@crag.example', password: 'correct-horse-battery-9', gym: 'Crag' })

/** Clicks and key presses, by whose hands. */
const counts = { staff: { clicks: 0, keys: 0 }, customer: { clicks: 0, keys: 0, strokes: 0 } }
type Hands = keyof typeof counts

function hands(page: Page, who: Hands) {
  const count = counts[who]
  return {
    click: async (selector: ReturnType<Page['getByRole']>) => {
      await selector.click()
      count.clicks++
    },
    type: async (text: string) => {
      await page.keyboard.type(text)
      count.keys += text.length
    },
    press: async (key: string) => {
      await page.keyboard.press(key)
      count.keys++
    },
  }
}

try {
  const { api } = desk
  const dayPass = await api(
    'POST',
    '/api/entry-passes/',
    { name: 'Day Pass', status: 'ACT', number_of_entries: 1, price: '18.00' },
    201,
  )
  await api(
    'PUT',
    '/api/organization/quick-sales/',
    { quick_sales: [{ purchase_type: 'EPA', product_id: dayPass.id, label: 'Day pass' }] },
    200,
  )
  await api('POST', '/api/waiver-texts/', { text: 'I climb at my own risk.', valid_for_days: 365 }, 201)

  const page = await openLoggedIn(desk, desk.token)
  await page.setViewportSize({ width: 1366, height: 768 })
  await page.getByRole('button', { name: 'Customers' }).waitFor()
  const staff = hands(page, 'staff')
  const customer = hands(page, 'customer')
  const started = performance.now()

  // 1. The walk-in's details, typed field to field.
  await staff.click(page.getByRole('button', { name: 'Customers' }))
  await staff.click(page.getByRole('button', { name: 'Sign up a walk-in' }))
  await page.locator('input[name="first_name"]:focus').waitFor()
  await staff.type('Ashima')
  await staff.press('Tab')
  await staff.type('Shiraishi')
  await page.getByLabel('Birthday').focus()
  counts.staff.clicks++ // a click into the birthday field
  await staff.type('04032001')
  await staff.press('Enter')
  await page.getByRole('button', { name: 'Sign waiver now' }).waitFor()

  // 2. The waiver, on the tablet: the desk opens it; the customer reads, gives a phone, signs.
  await staff.click(page.getByRole('button', { name: 'Sign waiver now' }))
  await page.getByLabel('Phone').waitFor()
  await customer.click(page.getByLabel('Phone'))
  await customer.type('3035550182')
  await drawSignature(page)
  counts.customer.strokes++
  await customer.click(page.getByRole('checkbox'))
  await customer.click(page.getByRole('button', { name: 'Sign', exact: true }))
  await page.getByRole('heading', { name: 'Thank you!' }).waitFor()

  // 3. Back at the desk: their page, a check-in that says what is missing and offers the sale.
  await staff.click(page.getByRole('button', { name: 'Open customer' }))
  await staff.click(page.getByRole('button', { name: 'Check in', exact: true }))
  await staff.click(page.getByRole('button', { name: 'Sell a day pass' }))
  await staff.click(page.getByRole('button', { name: 'Day pass' }))
  const post = page.getByRole('button', { name: 'Post the sale' })
  await page.locator('.sale-summary .total').getByText('18.00').waitFor()
  await staff.click(post)

  // 4. The receipt, and the check-in it offers.
  await staff.click(page.getByRole('button', { name: 'Check in Ashima' }))
  await page.locator('.card.ok').waitFor()
  const seconds = (performance.now() - started) / 1000

  const card = await page.locator('.card').innerText()
  console.log(`card: ${card.split('\n').filter(Boolean).join(' | ')}`)
  console.log(
    `desk staff: ${counts.staff.clicks} clicks, ${counts.staff.keys} key presses; ` +
      `the customer at the tablet: ${counts.customer.clicks} taps, ${counts.customer.keys} key presses, ` +
      `${counts.customer.strokes} signature; ${seconds.toFixed(1)} s of page time (Chromium driven without pauses)`,
  )
} finally {
  await desk.browser.close()
  await stopAll()
  removeTempDirs()
}
