/**
 * Same answers: does a change leave the API's behaviour over HTTP as it was? Two builds of Belay
 * answer the same requests, each on its own copy of one seeded file, and every answer's status and
 * body are compared.
 *
 *   npx bun run test/bench/same-answers.ts --before OLD_EXECUTABLE [--after build/out/belay]
 *                                          [--seed 1] [--keep] [--list]
 *
 * 1. The BEFORE executable seeds the `small` demo into a temporary file (it is the older build, and
 *    the newer one can migrate its file where the older could not open the newer's); the file is
 *    copied twice, each copy migrated by its own executable and served by it on a free loopback
 *    port.
 * 2. Both log in as the demo admin. Then the same requests go to both, one at a time, before's
 *    first: every GET of the OpenAPI document's paths (lists with paging and each documented query
 *    filter, good and bad values; details of the first and last record of each list, an id that
 *    does not exist and one that is not digits), bad bodies to every POST, PUT and PATCH, 401s
 *    without and with a wrong token, 403s as a staff user without permissions, sales, door scans,
 *    metrics queries of several types and the members report. Where a request needs an id, it takes
 *    it from before's answer, so both get byte-identical requests.
 * 3. Answers are compared after normalising what two runs cannot share: tokens, generated gift
 *    codes, the servers' own addresses, and instants taken during the run (the servers' clocks run a
 *    few milliseconds apart; the seeded file's instants are the same in both copies and compared as
 *    they are). /metrics, /healthz and the OpenAPI document are compared by status only: counters
 *    and uptime differ between any two processes, and the document's prose may change when the
 *    answers do not.
 *
 * Prints how many requests were compared and each difference (method, path and the first differing
 * fields); exits 1 on any difference. --list prints every request with before's status and the
 * start of its body; --keep keeps the temporary directory with both copies. Not a benchmark: `npm run bench` leaves it out.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { stringArg } from './_args.ts'

const DEMO_ADMIN = { username: 'admin@granitepeak.example', password: 'granite-peak-demo' }
const BEFORE = stringArg('--before')
const AFTER = resolve(stringArg('--after') ?? join(import.meta.dir, '..', '..', 'build', 'out', 'belay'))
const SEED = stringArg('--seed') ?? '1'
const KEEP = process.argv.includes('--keep')
const LIST = process.argv.includes('--list')

if (!BEFORE || !existsSync(BEFORE) || !existsSync(AFTER)) {
  console.error(
    'usage: npx bun run test/bench/same-answers.ts --before OLD_EXECUTABLE [--after NEW_EXECUTABLE] [--seed N] [--keep]',
  )
  process.exit(2)
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))

/** The environment without BELAY_* settings, and no scheduled snapshots during the run. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('BELAY_')) env[key] = value
  }
  return { ...env, BELAY_BACKUP_INTERVAL: 'off' }
}

function run(executable: string, args: string[], cwd: string): void {
  const result = Bun.spawnSync([executable, ...args], {
    cwd,
    env: cleanEnv(),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  if (result.exitCode !== 0)
    throw new Error(`${executable} ${args.join(' ')} failed:\n${result.stderr.toString()}`)
}

interface Served {
  base: string
  stop(): Promise<void>
}

/** `serve` on a port the kernel picks, read back from the "listening" line; waits for /healthz. */
async function serve(executable: string, db: string, cwd: string): Promise<Served> {
  const proc = Bun.spawn([executable, 'serve', '--host', '127.0.0.1', '--port', '0', '--db', db], {
    cwd,
    env: cleanEnv(),
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
  })
  let stderr = ''
  void (async () => {
    const decoder = new TextDecoder()
    for await (const chunk of proc.stderr) stderr += decoder.decode(chunk, { stream: true })
  })()
  const stop = async () => {
    proc.kill('SIGTERM')
    const code = await Promise.race([proc.exited, sleep(10_000).then(() => 'timeout' as const)])
    if (code === 'timeout') {
      proc.kill('SIGKILL')
      await proc.exited
    }
  }
  const deadline = Date.now() + 30_000
  for (;;) {
    const line = stderr.split('\n').find((l) => l.includes('"listening"'))
    if (line) {
      const base = `http://127.0.0.1:${new URL(JSON.parse(line).url).port}`
      for (;;) {
        const ok = await fetch(`${base}/healthz`)
          .then(async (res) => (await res.arrayBuffer(), res.status === 200))
          .catch(() => false)
        if (ok) return { base, stop }
        if (Date.now() > deadline) break
        await sleep(20)
      }
    }
    if (proc.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`${executable} serve did not start:\n${stderr}`)
    }
    await sleep(20)
  }
}

// ---------------------------------------------------------------------------------------------------
// Requests and answers

interface Req {
  method: string
  path: string
  /**
   * Sent as JSON; a string is sent as it is (a body that does not parse). A function gives each
   * side its own body: a gift code is one that side generated.
   */
  body?: unknown | ((side: Side) => unknown)
  /** Which token: the admin's (default), none, a wrong one, or the staff user's without permissions. */
  as?: 'admin' | 'none' | 'wrong' | 'unprivileged'
  /** Compare the status only (answers that carry counters, uptime or prose). */
  statusOnly?: boolean
}

interface Answer {
  status: number
  body: unknown
}

interface Side {
  name: string
  base: string
  tokens: Record<'admin' | 'unprivileged', string>
}

const WRONG_TOKEN = '0'.repeat(40)

async function send(side: Side, req: Req): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' }
  const as = req.as ?? 'admin'
  if (as === 'wrong') headers.authorization = `Token ${WRONG_TOKEN}`
  else if (as !== 'none') headers.authorization = `Token ${side.tokens[as]}`
  let body: string | undefined
  const json = typeof req.body === 'function' ? req.body(side) : req.body
  if (json !== undefined) {
    headers['content-type'] = 'application/json'
    body = typeof json === 'string' ? json : JSON.stringify(json)
  }
  const res = await fetch(side.base + req.path, { method: req.method, headers, body })
  const type = res.headers.get('content-type') ?? ''
  if (type.includes('json')) {
    const text = await res.text()
    try {
      return { status: res.status, body: JSON.parse(text) }
    } catch {
      return { status: res.status, body: text }
    }
  }
  if (type.startsWith('text/')) return { status: res.status, body: await res.text() }
  // A PDF or another binary answer: its type and length (a PDF carries its own creation time).
  return { status: res.status, body: { content_type: type, bytes: (await res.arrayBuffer()).byteLength } }
}

const RUN_STARTED = Date.now() - 60_000
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/
const TOKEN_KEYS = new Set(['token', 'key'])
const GENERATED_CODE_KEYS = new Set(['code', 'gift_code'])

/** What two runs of the same requests cannot share, replaced by placeholders. */
function normalise(value: unknown, side: Side, key = ''): unknown {
  if (typeof value === 'string') {
    if (TOKEN_KEYS.has(key) && /^[0-9a-f]{40}$/.test(value)) return '<token>'
    if (GENERATED_CODE_KEYS.has(key) && /^[A-Z0-9]{12}$/.test(value)) return '<generated code>'
    if (ISO_INSTANT.test(value) && Date.parse(value) >= RUN_STARTED) return '<instant of the run>'
    return value.split(side.base).join('<base>')
  }
  if (Array.isArray(value)) return value.map((item) => normalise(item, side, key))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, side, k)]))
  return value
}

/** The first few places where two answers differ, as `where: before | after`. */
function differences(a: unknown, b: unknown, where = '$', found: string[] = []): string[] {
  if (found.length >= 5) return found
  const show = (v: unknown) => {
    const text = JSON.stringify(v) ?? 'undefined'
    return text.length > 120 ? `${text.slice(0, 117)}...` : text
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) found.push(`${where}: ${a.length} items | ${b.length} items`)
    for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], `${where}[${i}]`, found)
  } else if (
    a &&
    b &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    for (const k of keys) {
      if (!(k in a)) found.push(`${where}.${k}: (absent) | ${show((b as any)[k])}`)
      else if (!(k in b)) found.push(`${where}.${k}: ${show((a as any)[k])} | (absent)`)
      else differences((a as any)[k], (b as any)[k], `${where}.${k}`, found)
    }
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    found.push(`${where}: ${show(a)} | ${show(b)}`)
  }
  return found
}

// ---------------------------------------------------------------------------------------------------
// The run

const dir = mkdtempSync(join(tmpdir(), 'belay-same-answers-'))
const servers: Served[] = []
let compared = 0
/** Before's statuses, counted: how much of the run was refusals. */
const statuses = new Map<number, number>()
const report: string[] = []

/** Each side's last answer, for a request whose body names what that side generated. */
const lastAnswer = new Map<Side, Answer>()

/** Sends `req` to both, before's first; records any difference; returns before's answer. */
async function both(before: Side, after: Side, req: Req): Promise<Answer> {
  const a = await send(before, req)
  const b = await send(after, req)
  lastAnswer.set(before, a)
  lastAnswer.set(after, b)
  compared++
  statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1)
  if (LIST)
    console.log(
      `${a.status} ${req.method} ${req.path}${req.as ? ` (as ${req.as})` : ''} ${JSON.stringify(a.body)?.slice(0, 160)}`,
    )
  const na = { status: a.status, body: req.statusOnly ? null : normalise(a.body, before) }
  const nb = { status: b.status, body: req.statusOnly ? null : normalise(b.body, after) }
  const found = differences(na, nb)
  if (found.length > 0)
    report.push(`${req.method} ${req.path}${req.as ? ` (as ${req.as})` : ''}\n    ${found.join('\n    ')}`)
  return a
}

/** A value of a query parameter's schema that a filter accepts, and one it refuses. */
function sampleValues(schema: any, name: string, today: string): [string, string] {
  const anyOf: any[] = schema?.anyOf ?? [schema ?? {}]
  const first = anyOf.find((s) => s.const !== undefined || s.enum) ?? anyOf[0] ?? {}
  if (first.const !== undefined) return [String(first.const), 'not-one-of-them']
  if (first.enum) return [String(first.enum[0]), 'not-one-of-them']
  if (first.type === 'boolean') return ['true', 'maybe']
  if (first.type === 'integer' || first.type === 'number') return ['1', 'one']
  if (first.format === 'date') return [today, '2026-02-30']
  if (first.format === 'date-time') return [`${today}T00:00:00Z`, 'yesterday']
  if (name.endsWith('_in')) return ['ACT,FRZ', 'ACT,NOPE']
  return ['a', '\u0000']
}

try {
  const seeded = join(dir, 'seeded.sqlite3')
  run(BEFORE, ['seed-demo', '--size', 'small', '--seed', SEED, '--db', seeded], dir)
  const copies = { before: join(dir, 'before.sqlite3'), after: join(dir, 'after.sqlite3') }
  for (const copy of Object.values(copies)) {
    copyFileSync(seeded, copy)
    for (const suffix of ['-wal', '-shm'])
      if (existsSync(seeded + suffix)) copyFileSync(seeded + suffix, copy + suffix)
  }
  run(BEFORE, ['migrate', '--db', copies.before], dir)
  run(AFTER, ['migrate', '--db', copies.after], dir)
  const [beforeServer, afterServer] = await Promise.all([
    serve(BEFORE, copies.before, dir),
    serve(AFTER, copies.after, dir),
  ])
  servers.push(beforeServer, afterServer)

  const login = async (base: string, credentials: { username: string; password: string }) => {
    const res = await fetch(`${base}/api/get-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    })
    const body = (await res.json()) as { token: string }
    if (res.status !== 200)
      throw new Error(`login at ${base} answered ${res.status}: ${JSON.stringify(body)}`)
    return body.token
  }
  const before: Side = {
    name: 'before',
    base: beforeServer.base,
    tokens: { admin: await login(beforeServer.base, DEMO_ADMIN), unprivileged: '' },
  }
  const after: Side = {
    name: 'after',
    base: afterServer.base,
    tokens: { admin: await login(afterServer.base, DEMO_ADMIN), unprivileged: '' },
  }
  const ask = (req: Req) => both(before, after, req)

  // A staff user with no permission, made through the API on both, for the 403s.
  const noPermissions = { username: 'same-answers@granitepeak.example', password: 'same-answers-9-pass' }
  const flags = Object.fromEntries(
    Object.keys(((await ask({ method: 'GET', path: '/api/my-account/' })).body as object) ?? {})
      .filter((k) => k.startsWith('can_') || k === 'is_organization_admin')
      .map((k) => [k, false]),
  )
  const made = await ask({
    method: 'POST',
    path: '/api/users/',
    body: {
      email: noPermissions.username,
      password: noPermissions.password,
      default_gym_id: 1,
      is_active: true,
      ...flags,
    },
  })
  if (made.status !== 201)
    throw new Error(`making a staff user answered ${made.status}: ${JSON.stringify(made.body)}`)
  before.tokens.unprivileged = await login(before.base, noPermissions)
  after.tokens.unprivileged = await login(after.base, noPermissions)

  // The paths and their query parameters, from the document the before build serves.
  const doc = (await (await fetch(`${before.base}/swagger/json`)).json()) as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema?: unknown }[] }>>
  }
  await ask({ method: 'GET', path: '/swagger/json', statusOnly: true })
  await ask({ method: 'GET', path: '/healthz', statusOnly: true })
  await ask({ method: 'GET', path: '/metrics', statusOnly: true })

  const organization = (await ask({ method: 'GET', path: '/api/organization/' })).body as {
    time_zone: string
  }
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: organization.time_zone }).format(new Date())

  // Logging in: wrong password, missing fields, a body that does not parse.
  await ask({
    method: 'POST',
    path: '/api/get-token/',
    body: { ...DEMO_ADMIN, password: 'wrong' },
    as: 'none',
  })
  await ask({ method: 'POST', path: '/api/get-token/', body: {}, as: 'none' })
  await ask({ method: 'POST', path: '/api/get-token/', body: '{"username":', as: 'none' })

  const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/'))
  const lists = paths.filter((p) => !p.includes('{') && doc.paths[p]!.get)
  const firstIds = new Map<string, number[]>()

  // Every list: as the admin, without a token, with a wrong one, without permissions; paging; each
  // filter with a value it takes and one it refuses.
  for (const path of lists) {
    const answer = await ask({ method: 'GET', path })
    const results = (answer.body as { results?: { id?: number }[] })?.results
    if (Array.isArray(results)) {
      const ids = results.map((r) => r.id).filter((id): id is number => typeof id === 'number')
      firstIds.set(path, ids)
    }
    await ask({ method: 'GET', path, as: 'none' })
    await ask({ method: 'GET', path, as: 'wrong' })
    await ask({ method: 'GET', path, as: 'unprivileged' })
    const params = doc.paths[path]!.get!.parameters ?? []
    if (params.some((p) => p.name === 'page')) {
      await ask({ method: 'GET', path: `${path}?page=2&page_size=3` })
      await ask({ method: 'GET', path: `${path}?page=last` })
      await ask({ method: 'GET', path: `${path}?page=9999` })
      await ask({ method: 'GET', path: `${path}?page_size=0` })
    }
    for (const param of params) {
      if (param.in !== 'query' || param.name === 'page' || param.name === 'page_size') continue
      const [good, bad] = sampleValues(param.schema, param.name, today)
      await ask({ method: 'GET', path: `${path}?${param.name}=${encodeURIComponent(good)}` })
      await ask({ method: 'GET', path: `${path}?${param.name}=${encodeURIComponent(bad)}` })
    }
  }

  // Every detail: the first and last record of its list, an id nobody has, one that is not digits.
  const customers = firstIds.get('/api/customers/') ?? [1]
  const fill = (path: string, id: string | number) =>
    path.replace('{customer_id}', String(customers[0])).replace(/\{[a-z_]+\}/g, String(id))
  for (const path of paths.filter((p) => p.includes('{') && doc.paths[p]!.get)) {
    const listPath = path.slice(0, path.lastIndexOf('{'))
    const list = listPath.includes('{')
      ? ((await both(before, after, { method: 'GET', path: fill(listPath, 0) })).body as {
          results?: { id: number }[]
        })
      : { results: (firstIds.get(listPath) ?? []).map((id) => ({ id })) }
    const ids = (list?.results ?? []).map((r) => r.id)
    for (const id of new Set([ids[0] ?? 1, ids.at(-1) ?? 2, 999999, 'abc']))
      await ask({ method: 'GET', path: fill(path, id) })
    await ask({ method: 'GET', path: fill(path, ids[0] ?? 1), as: 'none' })
    await ask({ method: 'GET', path: fill(path, ids[0] ?? 1), as: 'unprivileged' })
  }

  // Bad bodies to every write: empty, the wrong type, a body that does not parse.
  for (const path of paths) {
    for (const method of ['post', 'put', 'patch']) {
      if (!doc.paths[path]![method]) continue
      if (path === '/api/change-password/' || path === '/api/logout/' || path.endsWith('revoke-tokens/'))
        continue
      const target = fill(path, 999999)
      for (const body of [{}, [], 'not json', { id: 'x', name: 123 }])
        await ask({ method: method.toUpperCase(), path: target, body })
      if (path.includes('{')) await ask({ method: method.toUpperCase(), path: fill(path, 'abc'), body: {} })
      await ask({ method: method.toUpperCase(), path: target, body: {}, as: 'unprivileged' })
    }
  }

  // Sales: a generic line; entry passes with a discount; a membership; a gift; and refusals.
  const entryPasses = firstIds.get('/api/entry-passes/') ?? []
  const memberships = firstIds.get('/api/memberships/') ?? []
  const discounts =
    ((await ask({ method: 'GET', path: '/api/discounts/?page_size=100' })).body as any)?.results ?? []
  const codes: string[] = discounts.filter((d: any) => d.code).map((d: any) => d.code)
  const card = {
    payment_type: 'OFF',
    payment_method_type: 'CRD',
    credit_card_last4: '4242',
    credit_card_brand: 'visa',
  }
  const sales: unknown[] = [
    {
      customer_id: customers[0],
      line_items: [{ purchase_type: 'GEN', description: 'Chalk bag', unit_price: '12.00' }],
      payments: [{ ...card, amount: '12.00' }],
    },
    {
      customer_id: customers[1] ?? customers[0],
      discount_codes: codes.slice(0, 1),
      line_items: [
        { purchase_type: 'EPA', entry_pass_id: entryPasses[0], quantity: 2 },
        { purchase_type: 'GEN', description: 'Guide book', unit_price: 8 },
      ],
    },
    {
      customer_id: customers[1] ?? customers[0],
      line_items: [{ purchase_type: 'GEN', description: 'Chalk', unit_price: '3.50', quantity: 3 }],
      payments: [{ ...card, amount: '500.00' }],
    },
    {
      customer_id: customers[2] ?? customers[0],
      line_items: [{ purchase_type: 'MIN', membership_id: memberships[0], start_date: today }],
    },
    {
      customer_id: customers[3] ?? customers[0],
      line_items: [
        { purchase_type: 'GIF', gift: { entry_pass_id: entryPasses[0] } },
        { purchase_type: 'GIF', gift: { membership_id: memberships[0] } },
      ],
    },
    { customer_id: customers[0], line_items: [{ purchase_type: 'GEN', description: 'Tape' }] },
    { customer_id: 999999, line_items: [{ purchase_type: 'EPA', entry_pass_id: 999999 }] },
    {
      customer_id: customers[0],
      discount_codes: ['NO-SUCH-CODE'],
      line_items: [{ purchase_type: 'GEN', description: 'Tape', unit_price: '-1' }],
      payments: [{ ...card, amount: '-5' }],
    },
  ]
  const giftCodes = new Map<Side, string[]>()
  for (const sale of sales) {
    const answer = await ask({ method: 'POST', path: '/api/invoices/', body: sale })
    for (const side of [before, after]) {
      const lines = (lastAnswer.get(side)!.body as { line_items?: { gift_code?: string | null }[] })
        ?.line_items
      for (const line of lines ?? [])
        if (line.gift_code) giftCodes.set(side, [...(giftCodes.get(side) ?? []), line.gift_code])
    }
    const id = (answer.body as { id?: number })?.id
    if (answer.status === 201 && id) await ask({ method: 'GET', path: `/api/invoices/${id}/` })
  }
  // Each side redeems the gifts it sold (twice: the second is refused), in lower case, and one
  // code nobody holds.
  for (const [i] of (giftCodes.get(before) ?? []).entries()) {
    const redeem = (side: Side) => ({
      code: giftCodes.get(side)?.[i]?.toLowerCase(),
      customer_id: customers[4],
    })
    await ask({ method: 'POST', path: '/api/gifts/redeem/', body: redeem })
    await ask({ method: 'POST', path: '/api/gifts/redeem/', body: redeem })
  }
  await ask({
    method: 'POST',
    path: '/api/gifts/redeem/',
    body: { code: 'NOSUCHGIFT00', customer_id: customers[4] },
  })
  await ask({ method: 'GET', path: '/api/customer-entry-passes/?page_size=3' })
  await ask({ method: 'GET', path: '/api/customer-memberships/?page_size=3' })
  await ask({ method: 'GET', path: '/api/invoices/?page_size=5' })
  await ask({ method: 'GET', path: '/api/payments/?page_size=5' })

  // Door scans: the barcodes of the first customers, each twice (a duplicate), and unknown ones.
  const someCustomers = ((await ask({ method: 'GET', path: '/api/customers/?page_size=12' })).body as any)
    ?.results as { barcode?: string | null; id: number }[]
  const barcodes = (someCustomers ?? []).map((c) => c.barcode).filter((b): b is string => !!b)
  for (const barcode of [...barcodes, 'NO-SUCH-CARD', '000000000', '%20']) {
    const b = encodeURIComponent(barcode)
    await ask({ method: 'GET', path: `/api/look-up-member-by-barcode/${b}/` })
    await ask({ method: 'POST', path: `/api/gym-endpoints/barcode-check-in/${b}/`, body: {} })
    await ask({ method: 'POST', path: `/api/gym-endpoints/open-door-check-in/${b}/`, body: {} })
    await ask({
      method: 'POST',
      path: `/api/gym-endpoints/open-door-check-in/${b}/`,
      body: { location_id: 999999 },
    })
  }
  for (const c of (someCustomers ?? []).slice(0, 3)) {
    const host = someCustomers[5]?.id ?? c.id
    await ask({
      method: 'POST',
      path: `/api/gym-endpoints/free-entry-check-in/${c.id}/`,
      body: { free_entry_reason: 'Route setter' },
    })
    await ask({
      method: 'POST',
      path: `/api/gym-endpoints/guest-check-in/${c.id}/`,
      body: { host_customer_id: host },
    })
    await ask({
      method: 'POST',
      path: `/api/gym-endpoints/guest-check-in/${c.id}/`,
      body: { host_customer_id: c.id },
    })
  }
  await ask({ method: 'GET', path: '/api/check-ins/?this_calendar_day=true&page_size=50' })

  // Metrics: each type over a few ranges and intervals, and refusals.
  const metricTypes = [
    'revenue',
    'check_in_count',
    'membership_count',
    'member_churn',
    'customer_retention',
    'first_check_in_conversion',
    'membership_referral_count',
    'membership_status_change_count',
    'new_customer_count',
    'product_conversion',
    'product_sold_count',
  ]
  const ranges = [
    {},
    { interval: 'weekly', start_date: '2026-01-05', end_date: '2026-03-29' },
    { interval: 'monthly', start_date: '2025-01-01', end_date: today },
    { interval: 'daily', start_date: today, end_date: today },
  ]
  for (const range of ranges)
    for (const type of metricTypes)
      await ask({
        method: 'POST',
        path: '/api/metrics/query/',
        body: { ...range, metrics: [{ id: type, type }] },
      })
  await ask({
    method: 'POST',
    path: '/api/metrics/query/',
    body: { metrics: metricTypes.map((type) => ({ id: type, type })), interval: 'quarterly' },
  })
  for (const body of [
    {},
    { metrics: [] },
    { metrics: [{ id: 'x', type: 'no_such_metric' }] },
    { metrics: [{ id: 'r', type: 'revenue', filters: { no_such_filter: 1 } }] },
    { start_date: '2026-03-01', end_date: '2026-02-01', metrics: [{ id: 'c', type: 'check_in_count' }] },
  ])
    await ask({ method: 'POST', path: '/api/metrics/query/', body })

  // The members report under several filters.
  for (const query of [
    '',
    '?status_in=ACT',
    '?status_in=FRZ',
    '?status_in=ACT,FRZ,PAF&include_billing_info=true',
    `?membership_id=${memberships[0] ?? 1}`,
    '?is_group=true',
    `?start_date_min=2025-01-01&start_date_max=${today}`,
    '?has_payment_method=false',
  ])
    await ask({ method: 'GET', path: `/api/members/${query}` })
} finally {
  await Promise.all(servers.map((s) => s.stop()))
  if (KEEP) console.log(`kept ${dir}`)
  else rmSync(dir, { recursive: true, force: true })
}

const byStatus = [...statuses].sort(([x], [y]) => x - y).map(([status, n]) => `${n} × ${status}`)
console.log(`${compared} requests compared (${byStatus.join(', ')}), ${report.length} answered differently`)
for (const line of report) console.log(`  ${line}`)
process.exit(report.length === 0 ? 0 : 1)
