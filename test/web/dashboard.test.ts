/**
 * The Dashboard in a real browser (Debian's Chromium through playwright-core, against the built
 * executable serving a seeded demo gym, five years of check-ins and sales), used from the keyboard:
 * each chart's figures are the metrics query's for the range it shows, a new range asks again, the
 * CSV holds the series, and a user without report access is offered no dashboard. One browser for
 * the file, a fresh context for each test.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '../../src/demo/index.ts'
import { removeTempDirs, request, runBelay, stopAll, tempDir, type Server } from '../e2e/helpers.ts'
import { openLoggedIn, startDesk, type DeskUnderTest } from './browser.ts'
import { contrastRatio, textContrasts } from './contrast.ts'

/** The demo organization's zone: the charts' ranges end on its today. */
const ZONE = 'America/Denver'
const DAY_MS = 86_400_000

let server: Server
let browser: Browser
let token: string
let api: DeskUnderTest['api']
let staffToken: DeskUnderTest['staffToken']

const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date())
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
const money = (amount: number) =>
  amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

beforeAll(async () => {
  const db = join(tempDir('belay-dashboard'), 'demo.sqlite3')
  const seeded = await runBelay(['seed-demo', '--size', 'small', '--seed', '3', '--db', db])
  if (seeded.code !== 0) throw new Error(`seed-demo failed:\n${seeded.stderr}`)
  ;({ server, browser, token, api, staffToken } = await startDesk(
    { email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD, gym: 'Granite Peak Denver' },
    { db },
  ))
})

afterAll(async () => {
  await browser?.close()
  await stopAll()
  removeTempDirs()
})

interface MetricsAnswer {
  start_date: string
  end_date: string
  buckets: { start_date: string }[]
  series: { id: string; values: (number | null)[] }[]
}

/** The metrics query as the admin asks it, beside the page. */
const metrics = (body: unknown): Promise<MetricsAnswer> => api('POST', '/api/metrics/query/', body, 200)
const values = (answer: MetricsAnswer, id: string) => answer.series.find((s) => s.id === id)!.values

/** The check-ins per day and the revenue per week as the dashboard asks for them. */
const checkInsQuery = (start: string, end: string) => ({
  interval: 'daily',
  start_date: start,
  end_date: end,
  metrics: [{ id: 'check_ins', type: 'check_in_count' }],
})
const revenueQuery = (start: string, end: string) => ({
  interval: 'weekly',
  start_date: start,
  end_date: end,
  metrics: [
    { id: 'net', type: 'revenue', filters: { product_type: 'all' } },
    { id: 'gross', type: 'revenue', filters: { product_type: 'all', revenue_calculation: 'gross' } },
  ],
})

/** The table's rows the answer makes: the bucket, then each series' figure. */
const checkInRows = (answer: MetricsAnswer) =>
  answer.buckets.map((b, i) => [b.start_date, String(values(answer, 'check_ins')[i])])
const revenueRows = (answer: MetricsAnswer) =>
  answer.buckets.map((b, i) => [
    b.start_date,
    money(values(answer, 'net')[i]!),
    money(values(answer, 'gross')[i]!),
  ])

/** The desk as a tab that logged in earlier finds it: the user's token in its session, the gym remembered. */
async function openDesk(key: string): Promise<Page> {
  return openLoggedIn({ browser, server }, key)
}

/**
 * The admin's desk on the Dashboard, every chart drawn, reached from the keyboard alone: from the
 * scan box, which has the focus, back through the header to the menu's Dashboard, then Enter.
 */
async function openDashboard(): Promise<Page> {
  const page = await openDesk(token)
  await page.getByLabel('Scan a card or type a barcode, then Enter').waitFor()
  const focused = () => page.locator(':focus').innerText()
  for (let i = 0; i < 10 && (await focused()) !== 'Dashboard'; i++) await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Enter')
  await page.locator('.chart canvas').nth(4).waitFor()
  return page
}

/** Waits until the element's text is `text` (an answer that arrives replaces it). */
async function shows(element: Locator, text: string) {
  await element.filter({ hasText: text }).waitFor()
  expect(await element.innerText()).toBe(text)
}

const panel = (page: Page, title: string) => page.getByRole('region', { name: title })

/** A chart's figures table, opened from the keyboard: its header and its rows, cell by cell. */
async function figures(chart: Locator): Promise<{ header: string[]; rows: string[][] }> {
  const summary = chart.getByText('Show figures')
  if ((await chart.locator('details').getAttribute('open')) === null) {
    await summary.focus()
    await summary.press('Enter')
  }
  const cells = (row: Locator) => row.locator('th, td').allInnerTexts()
  const header = await cells(chart.locator('thead tr'))
  const rows = await Promise.all((await chart.locator('tbody tr').all()).map(cells))
  return { header, rows }
}

const rangeOf = async (chart: Locator) => [
  await chart.locator('input[name="start_date"]').inputValue(),
  await chart.locator('input[name="end_date"]').inputValue(),
]

test('check-ins per day and revenue per week show the metrics query’s figures for the ranges they open with', async () => {
  const page = await openDashboard()
  const checkIns = panel(page, 'Check-ins per day')
  expect(await rangeOf(checkIns)).toEqual([addDays(today, -29), today])
  const daily = await metrics(checkInsQuery(addDays(today, -29), today))
  expect(daily.buckets).toHaveLength(30)
  expect(await figures(checkIns)).toEqual({ header: ['Day', 'Check-ins'], rows: checkInRows(daily) })
  // The demo gym is busy every day, so equal tables are not two empty ones.
  expect(
    values(daily, 'check_ins')
      .slice(0, -1)
      .every((n) => n! > 0),
  ).toBe(true)

  const revenue = panel(page, 'Revenue per week')
  expect(await rangeOf(revenue)).toEqual([addDays(today, -77), today])
  const weekly = await metrics(revenueQuery(addDays(today, -77), today))
  expect(weekly.buckets).toHaveLength(12)
  expect(await figures(revenue)).toEqual({
    header: ['Week from', 'Net (after refunds)', 'Gross'],
    rows: revenueRows(weekly),
  })
  await shows(revenue.locator('.covers'), `${weekly.start_date} to ${weekly.end_date}`)
})

test('today by hour shows each hour of today beside the average of the 8 same weekdays before it', async () => {
  const page = await openDashboard()
  const chart = panel(page, 'Today by hour')
  const start = addDays(today, -56)
  expect(await rangeOf(chart)).toEqual([start, today])
  const weekday = new Date(`${today}T00:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    timeZone: 'UTC',
  })
  const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'))
  const answer = await metrics({
    interval: 'daily',
    start_date: start,
    end_date: today,
    metrics: hours.map((hour, h) => ({
      id: hour,
      type: 'check_in_count',
      filters: {
        time_of_day_start: `${hour}:00`,
        ...(h < 23 && { time_of_day_end: `${hours[h + 1]}:00` }),
        day_of_week: [weekday.toLowerCase()],
      },
    })),
  })
  // Every 7th day from the first is the same weekday as today, the last.
  const earlier = [0, 7, 14, 21, 28, 35, 42, 49]
  const rows = hours.map((hour) => {
    const counts = values(answer, hour)
    const average = earlier.reduce((sum, i) => sum + counts[i]!, 0) / earlier.length
    return [`${hour}:00`, String(counts[56]), String(Math.round(average * 10) / 10)]
  })
  expect(await figures(chart)).toEqual({
    header: ['Hour', today, `Average of 8 ${weekday}s`],
    rows,
  })
  await shows(
    chart.locator('.covers'),
    `${weekday} ${today} by hour, against the 8 ${weekday}s from ${start} on`,
  )
  expect(rows.some(([, , average]) => Number(average) > 0)).toBe(true)
})

test('a new range, typed and sent with Enter, asks the metrics query again and shows its figures', async () => {
  const page = await openDashboard()
  const checkIns = panel(page, 'Check-ins per day')
  const [start, end] = [addDays(today, -70), addDays(today, -61)]
  await checkIns.getByLabel('From').fill(start)
  await checkIns.getByLabel('To').fill(end)
  await checkIns.getByLabel('To').press('Enter')
  await shows(checkIns.locator('.covers'), `${start} to ${end}`)
  expect(await figures(checkIns)).toEqual({
    header: ['Day', 'Check-ins'],
    rows: checkInRows(await metrics(checkInsQuery(start, end))),
  })

  // The API widens a range to whole weeks: the page says which days the figures cover.
  const revenue = panel(page, 'Revenue per week')
  const [from, to] = [addDays(today, -200), addDays(today, -180)]
  await revenue.getByLabel('From').fill(from)
  await revenue.getByLabel('To').fill(to)
  await revenue.getByRole('button', { name: 'Show' }).press('Enter')
  const weekly = await metrics(revenueQuery(from, to))
  await shows(revenue.locator('.covers'), `${weekly.start_date} to ${weekly.end_date}`)
  expect(weekly.start_date < from).toBe(true)
  expect((await figures(revenue)).rows).toEqual(revenueRows(weekly))

  // A range the API refuses shows its words, and no figures of another range.
  await revenue.getByLabel('From').fill(addDays(to, 1))
  await revenue.getByLabel('To').press('Enter')
  await shows(revenue.getByRole('alert'), `start_date: may not be after end_date (${to})`)
  expect(await revenue.locator('table').count()).toBe(0)
})

test('each chart’s CSV holds its series: a bucket column and one column per series', async () => {
  const page = await openDashboard()
  const download = async (chart: Locator) => {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      chart.getByRole('link', { name: 'Download CSV' }).press('Enter'),
    ])
    return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') }
  }
  const start = addDays(today, -77)
  const weekly = await metrics(revenueQuery(start, today))
  const net = values(weekly, 'net')
  const gross = values(weekly, 'gross')
  expect(await download(panel(page, 'Revenue per week'))).toEqual({
    name: `revenue-per-week-${start}-to-${today}.csv`,
    text: [
      'week_start,net,gross',
      ...weekly.buckets.map((b, i) => `${b.start_date},${net[i]!.toFixed(2)},${gross[i]!.toFixed(2)}`),
      '',
    ].join('\r\n'),
  })

  const daily = await metrics(checkInsQuery(addDays(today, -29), today))
  expect((await download(panel(page, 'Check-ins per day'))).text).toBe(
    [
      'date,check_ins',
      ...daily.buckets.map((b, i) => `${b.start_date},${values(daily, 'check_ins')[i]}`),
      '',
    ].join('\r\n'),
  )

  // Retention not yet known is an empty cell, not a zero.
  const year = await metrics({
    interval: 'monthly',
    start_date: addDays(today, -365),
    end_date: today,
    metrics: [
      { id: 'new_customers', type: 'new_customer_count' },
      { id: 'retention', type: 'customer_retention', filters: { component: 'rate' } },
    ],
  })
  const csv = (await download(panel(page, 'New customers and retention'))).text
  expect(csv).toBe(
    [
      'month,new_customers,retention',
      ...year.buckets.map(
        (b, i) =>
          `${b.start_date.slice(0, 7)},${values(year, 'new_customers')[i]},${values(year, 'retention')[i] ?? ''}`,
      ),
      '',
    ].join('\r\n'),
  )
  expect(values(year, 'retention').at(-1)).toBeNull()
})

test('the charts’ text meets WCAG AA, and their two series differ in colour and in line, each 3:1 against the page', async () => {
  const page = await openDashboard()
  const texts = page.locator('.chart-panel :is(h2, label, .covers, .legend li, summary, a.download)')
  expect(await texts.count()).toBeGreaterThan(30)
  expect((await textContrasts(texts)).filter((t) => t.ratio < 4.5)).toEqual([])

  const swatches = await panel(page, 'Revenue per week')
    .locator('.swatch')
    .evaluateAll((nodes) =>
      nodes.map((node) => {
        const style = node.ownerDocument.defaultView!.getComputedStyle(node)
        return [style.borderTopColor, style.borderTopStyle]
      }),
    )
  expect(swatches.map(([, style]) => style)).toEqual(['solid', 'dashed'])
  expect(swatches[0]![0]).not.toBe(swatches[1]![0])
  for (const [colour] of swatches)
    expect(contrastRatio(colour!.match(/\d+/g)!.map(Number), [255, 255, 255])).toBeGreaterThanOrEqual(3)
})

test('a user without report access is offered no dashboard, and the API refuses them its figures', async () => {
  const key = await staffToken('desk-only@granitepeak.example', 'front-desk-only-9', ['can_manage_members'])
  const page = await openDesk(key)
  const menu = page.getByRole('navigation', { name: 'Screens' }).getByRole('button')
  await page.getByRole('button', { name: 'Customers' }).waitFor()
  expect(await menu.allInnerTexts()).not.toContain('Dashboard')
  expect(await menu.allInnerTexts()).toContain('Today')
  const refused = await request(server.base, 'POST', '/api/metrics/query/', {
    token: key,
    json: checkInsQuery(today, today),
  })
  expect(refused.status).toBe(403)
})
