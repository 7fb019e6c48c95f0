/**
 * Payments list benchmark: GET /api/payments/ over HTTP from the built executable.
 *
 *   npx bun run test/bench/payments.ts     (or `npm run bench -- payments`)
 *
 * Builds build/out/belay if it is stale, seeds the `large` demo set into a temporary FILE database
 * (os.tmpdir(), so TMPDIR picks the disk), adds BENCH-ONLY SALES to it (below), starts `belay serve`
 * on it and sends each case WARMUP untimed requests, then RUNS timed ones, one at a time, with a
 * token of a user who has can_access_reports. A request's time runs from fetch until its whole
 * body has been read. Reported: median, p95 and max ms, the count and the body size.
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { hashTokenKey, newTokenKey } from '../../src/lib/secrets.ts'
import { BELAY, buildIfNeeded, seedLarge, startServing } from './_door-setup.ts'
import { formatTable, loadAverage } from './_table.ts'

const WARMUP = 5
const RUNS = 30
const PAYMENTS = 300_000
/** The sales run over the year before this instant. */
const END = Date.parse('2026-11-22T15:04:05.123Z')
const YEAR_MS = 365 * 24 * 3600 * 1000

/**
 * BENCH-ONLY SALES, until the demo data has its own: PAYMENTS invoices of one to three lines, one
 * in ten with a discount, each paid once (one in twenty twice, half each), spread evenly over the
 * year to END across the set's customers (one in ten anonymous) and gyms. Statuses mostly COM,
 * a few of each other. The figures are stored as the sales engine leaves them, not computed by it.
 */
function seedBenchSales(file: string): void {
  const sqlite = new Database(file)
  let state = 1
  const random = () => {
    // A fixed-seed LCG, so every run lists the same rows.
    state = (state * 48271) % 2147483647
    return state / 2147483647
  }
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  try {
    const customers = (sqlite.query('SELECT id FROM customers').all() as { id: number }[]).map((r) => r.id)
    const gyms = (sqlite.query('SELECT id FROM gyms').all() as { id: number }[]).map((r) => r.id)
    const staff = (sqlite.query('SELECT id FROM staff_users').all() as { id: number }[]).map((r) => r.id)
    const discount = sqlite
      .query(
        `INSERT INTO discounts (code, name, display_name, association_id, percent_off_hundredths,
          amount_off_cents, is_active, created_at, updated_at)
         VALUES ('BENCH10', 'Bench ten', '', 3, 1000, NULL, 1, $at, $at) RETURNING id`,
      )
      .get({ $at: new Date(END - YEAR_MS).toISOString() }) as { id: number }
    const invoice = sqlite.query(
      `INSERT INTO invoices (customer_id, gym_id, staff_user_id, description, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    const line = sqlite.query(
      `INSERT INTO invoice_line_items (invoice_id, position, purchase_type, description, quantity,
        unit_price_cents, discount_cents, net_cents, tax_rate_basis_points, tax_cents, revenue_account_code)
       VALUES (?, ?, ?, ?, 1, ?, ?, ?, 825, ?, ?)`,
    )
    const applied = sqlite.query(
      `INSERT INTO invoice_discounts (invoice_id, position, discount_id, code, name, display_name,
        association_id, amount_cents) VALUES (?, 0, ?, 'BENCH10', 'Bench ten', '', 3, ?)`,
    )
    const payment = sqlite.query(
      `INSERT INTO payments (invoice_id, status, payment_type, payment_method_type, amount_cents,
        amount_refunded_cents, processor_fee_cents, failure_message, credit_card_last4, credit_card_brand,
        bank_account_last4, bank_account_bank_name, processor_a_payment_intent_id,
        processor_b_external_transaction_id, processor_b_unique_transaction_id, processor_c_payment_link_name,
        processor_c_payment_link_id, processor_c_payment_id, gift_card_number, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, '', '', ?, '', '', '', '', '', '', ?, ?)`,
    )
    const products = [
      ['EPA', 'Day pass', 2200, '4000'],
      ['MRE', 'Monthly membership', 8900, '4100'],
      ['GEN', 'Chalk', 800, '4200'],
      ['BOO', 'Intro to climbing', 4500, '4300'],
    ] as const
    const statuses = ['COM', 'COM', 'COM', 'COM', 'COM', 'COM', 'COM', 'FAI', 'PRF', 'REF', 'PRO'] as const
    const types = ['STR', 'STR', 'OFF', 'CRE', 'VEN'] as const
    let made = 0
    sqlite.transaction(() => {
      while (made < PAYMENTS) {
        const at = new Date(END - YEAR_MS + Math.floor((made / PAYMENTS) * YEAR_MS)).toISOString()
        const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(products))
        const customer = random() < 0.1 ? null : pick(customers)
        const { id } = invoice.get(customer, pick(gyms), pick(staff), lines[0]![1], at, at) as { id: number }
        const gross = lines.reduce((sum, [, , price]) => sum + price, 0)
        const discounted = random() < 0.1
        let total = 0
        for (const [position, [type, description, price, code]] of lines.entries()) {
          const off = discounted ? Math.round(price / 10) : 0
          const net = price - off
          const tax = Math.round((net * 825) / 10_000)
          total += net + tax
          line.run(id, position, type, description, price, off, net, tax, code)
        }
        if (discounted) applied.run(id, discount.id, Math.round(gross / 10))
        const split = random() < 0.05
        for (const amount of split ? [Math.floor(total / 2), total - Math.floor(total / 2)] : [total]) {
          const status = pick(statuses)
          const type = pick(types)
          const refunded = status === 'REF' ? amount : status === 'PRF' ? Math.floor(amount / 2) : 0
          payment.run(
            id,
            status,
            type,
            type === 'STR' ? 'CRD' : 'NA',
            amount,
            refunded,
            status === 'FAI' ? 'Card declined' : '',
            type === 'STR' ? '4242' : '',
            type === 'STR' ? 'visa' : '',
            type === 'STR' ? `pi_${made}` : '',
            at,
            at,
          )
          made += 1
        }
      }
    })()
    sqlite.run('ANALYZE')
  } finally {
    sqlite.close()
  }
}

/** A token of a new staff user with can_access_reports only. */
function reportsToken(file: string): { token: string; searchTerm: string } {
  const sqlite = new Database(file)
  try {
    const { id } = sqlite
      .query(
        `INSERT INTO staff_users (email, first_name, last_name, date_joined, is_active, can_manage_events,
          can_manage_members, can_manage_customer_proficiencies, can_export_customers, can_access_reports,
          is_organization_admin, pin_mode_required, pin_hash, default_gym_id, password_hash)
         VALUES ('bench-reports@gym.example', 'Bench', 'Reports', $at, 1, 0, 0, 0, 0, 1, 0, 0, NULL,
          (SELECT min(id) FROM gyms), NULL) RETURNING id`,
      )
      .get({ $at: new Date(END).toISOString() }) as { id: number }
    const token = newTokenKey()
    sqlite
      .query('INSERT INTO auth_tokens (key_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, NULL)')
      .run(hashTokenKey(token), id, new Date(END).toISOString())
    // A customer with payments: the search a desk would type (their last name and first name).
    const customer = sqlite
      .query(
        `SELECT c.first_name, c.last_name FROM invoices i JOIN customers c ON c.id = i.customer_id
         WHERE c.last_name <> '' ORDER BY i.id LIMIT 1 OFFSET 1000`,
      )
      .get() as { first_name: string; last_name: string }
    return { token, searchTerm: `${customer.last_name} ${customer.first_name}` }
  } finally {
    sqlite.close()
  }
}

const cpu = cpus()
console.log(`machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Bun ${Bun.version}`)
console.log(`belay: ${buildIfNeeded()}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-payments-'))
try {
  const file = join(dir, 'belay.sqlite')
  let started = performance.now()
  seedLarge(file, 1, dir)
  console.log(`seeded the large demo set in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  started = performance.now()
  seedBenchSales(file)
  console.log(`added ${PAYMENTS} bench payments in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  const { token, searchTerm } = reportsToken(file)

  const served = await startServing([BELAY, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1'], dir)
  try {
    const cases: [string, string][] = [
      ['one month', 'created_at_min=2026-10-01&created_at_max=2026-10-31'],
      ['search', `search=${encodeURIComponent(searchTerm)}`],
      ['status_in', 'status_in=FAI,PRF'],
      ['no filter', ''],
    ]
    const rows: string[][] = []
    for (const [name, query] of cases) {
      const url = `${served.base}/api/payments/?${query}`
      const times: number[] = []
      let count = 0
      let bytes = 0
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const start = performance.now()
        const res = await fetch(url, { headers: { authorization: `Token ${token}` } })
        const body = await res.text()
        const ms = performance.now() - start
        if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body}`)
        if (i >= WARMUP) times.push(ms)
        count = (JSON.parse(body) as { count: number }).count
        bytes = body.length
      }
      times.sort((a, b) => a - b)
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1)
      rows.push([`GET /api/payments/ ${name}`, String(count), String(bytes), at(0.5), at(0.95), at(1)])
    }
    console.log(
      formatTable([['case', 'count', 'bytes', 'median ms', 'p95 ms', 'max ms'], ...rows], { rule: true }),
    )
    console.log(`load average: ${loadAverage()}`)
  } finally {
    await served.stop()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
