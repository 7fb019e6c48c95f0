/**
 * Scan to card: from a barcode scanned at the front desk to the frame that draws its card, as the
 * page itself measures it (the `scan-to-card` performance measure in src/web/screens/check-in/check-in.tsx),
 * in Debian's Chromium against the built executable on a free loopback port.
 *
 *   npm run bench -- scan-to-card
 *   npx bun run test/bench/scan-to-card.ts [--scans 10]
 *
 * A new organization with one gym and `--scans` members holding a membership and a waiver; each is
 * scanned once (checked in: the green card), then the same barcodes with a suffix nobody holds (the
 * unknown card), and in five fresh tabs the first scan after the page loads. Reports the median
 * and the slowest of each, and each first scan; asserts nothing about time.
 */
import type { Page } from 'playwright-core'
import { removeTempDirs, stopAll } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk } from '../web/browser.ts'
import { numberArg } from './_args.ts'

const SCANS = numberArg('--scans', 10)
/** Fresh tabs whose first scan is timed apart. */
const FIRST_LOADS = 5
const SCAN_LABEL = 'Scan a card or type a barcode, then Enter'
const DAY_MS = 86_400_000
const MEASURE = 'scan-to-card'

/** Scans as a USB scanner does, then waits for a card that reads differently from the one before. */
async function scanForCard(page: Page, barcode: string): Promise<void> {
  const card = page.locator('.card')
  const before = (await card.count()) === 0 ? null : await card.textContent()
  await page.keyboard.type(barcode)
  await page.keyboard.press('Enter')
  const sameAsBefore = new RegExp(`^${(before ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
  await (before === null ? card : card.filter({ hasNotText: sameAsBefore })).waitFor()
}

/** Each barcode scanned in turn; the page's own measures, sorted. */
async function timeScans(page: Page, barcodes: string[]): Promise<number[]> {
  for (const barcode of barcodes) await scanForCard(page, barcode)
  // The last card's time is taken in the frame after it shows.
  await page.waitForFunction(
    ([name, count]) => performance.getEntriesByName(name as string).length === count,
    [MEASURE, barcodes.length] as const,
  )
  const times = await page.evaluate((name) => {
    const entries = performance.getEntriesByName(name).map((e) => e.duration)
    performance.clearMeasures(name)
    return entries
  }, MEASURE)
  if (times.length !== barcodes.length)
    throw new Error(`${barcodes.length} scans gave ${times.length} measures`)
  return times.sort((a, b) => a - b)
}

const describeTimes = (sorted: number[]) =>
  `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`

const desk = await startDesk({
  email: 'bench@flatirons.example',
  password: 'correct-horse-battery-9',
  gym: 'Flatirons Boulders',
})
try {
  const monthly = await desk.api(
    'POST',
    '/api/memberships/',
    { name: 'Monthly Unlimited', status: 'ACT', purchase_type: 'PRE' },
    201,
  )
  const lastYear = new Date(Date.now() - 365 * DAY_MS).toISOString().slice(0, 10)
  const barcodes = Array.from({ length: SCANS }, (_, i) => `TM-${i + 1}`)
  const firstBarcodes = Array.from({ length: FIRST_LOADS }, (_, i) => `FL-${i + 1}`)
  for (const [i, barcode] of [...barcodes, ...firstBarcodes].entries()) {
    const customer = await desk.api(
      'POST',
      '/api/customers/',
      { first_name: 'Timed', last_name: `Member ${i + 1}`, birthday: '1990-05-01', barcode },
      201,
    )
    await desk.api('POST', `/api/customers/${customer.id}/documents/`, { name: 'Waiver' }, 201)
    await desk.api(
      'POST',
      '/api/customer-memberships/',
      { membership_id: monthly.id, owner_id: customer.id, start_date: lastYear },
      201,
    )
  }

  const page = await openLoggedIn(desk, desk.token, { gymId: 1 })
  await page.getByLabel(SCAN_LABEL).waitFor()
  const checkedIn = await timeScans(page, barcodes)
  const unknown = await timeScans(
    page,
    barcodes.map((barcode) => `${barcode}-LOST`),
  )
  // The first scan on a page just loaded, each in a tab of its own: the code it runs is not yet warm.
  const firstAfterLoad: number[] = []
  for (const barcode of firstBarcodes) {
    const fresh = await openLoggedIn(desk, desk.token, { gymId: 1 })
    await fresh.getByLabel(SCAN_LABEL).waitFor()
    firstAfterLoad.push(...(await timeScans(fresh, [barcode])))
    await fresh.context().close()
  }
  firstAfterLoad.sort((a, b) => a - b)
  console.log(`scan to card, ${SCANS} scans each (Chromium headless, built executable on loopback)`)
  console.log(`  checked in: ${describeTimes(checkedIn)}`)
  console.log(`  unknown:    ${describeTimes(unknown)}`)
  console.log(
    `  the first scan after the page loads, ${FIRST_LOADS} fresh tabs: ${firstAfterLoad.map((t) => t.toFixed(0)).join(', ')} ms`,
  )
} finally {
  await desk.browser.close()
  await stopAll()
  removeTempDirs()
}
