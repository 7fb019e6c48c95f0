/**
 * The door benchmark's setup and side measurements: building the executable when it is stale,
 * seeding, starting a server and reading its "listening" line, the barcodes by category, the bench's
 * own locations, the raw fsync cost of the disk, and the CPU profile summary. Used by door.ts.
 */
import { Database } from 'bun:sqlite'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { localDate } from '../../src/lib/local-time.ts'
import { ACTIVE_STATUSES } from '../../src/domain/membership-status.ts'
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '../../src/demo/index.ts'
import type { Barcodes } from './_door-load.ts'

export const ROOT = join(import.meta.dir, '..', '..')
export const BELAY = join(ROOT, 'build', 'out', 'belay')
export const DOOR_SERVER = join(import.meta.dir, '_door-server.ts')

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function newestMtime(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)))
  return newest
}

/** Builds build/out/belay when it is missing or older than the sources it is made of. */
export function buildIfNeeded(): 'built' | 'up to date' {
  let exeTime = 0
  try {
    exeTime = statSync(BELAY).mtimeMs
  } catch {
    // missing
  }
  const sources = ['src', 'migrations', 'package.json', 'build/build.ts'].map((p) =>
    newestMtime(join(ROOT, p)),
  )
  if (exeTime > Math.max(...sources)) return 'up to date'
  const result = Bun.spawnSync([process.execPath, 'run', join(ROOT, 'build', 'build.ts')], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  if (result.exitCode !== 0) {
    throw new Error(`npm run build failed:\n${result.stdout.toString()}\n${result.stderr.toString()}`)
  }
  return 'built'
}

/**
 * The environment without BELAY_* settings, so the bench decides every one. Serve's scheduled
 * snapshots are off unless `extra` turns them on: one would copy the large set during a measurement.
 * (An environment variable, not a flag: an older build given to --compare ignores it.)
 */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('BELAY_')) env[key] = value
  }
  return { ...env, BELAY_BACKUP_INTERVAL: 'off', ...extra }
}

export function seedLarge(db: string, seed: number, cwd: string, executable = BELAY): string {
  return seedDemo(db, 'large', seed, cwd, executable)
}

/** `belay seed-demo --size SIZE` into `db`; returns what it printed. */
export function seedDemo(
  db: string,
  size: 'small' | 'large',
  seed: number,
  cwd: string,
  executable = BELAY,
): string {
  const result = Bun.spawnSync(
    [executable, 'seed-demo', '--size', size, '--seed', String(seed), '--db', db],
    {
      cwd,
      env: cleanEnv(),
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  if (result.exitCode !== 0) throw new Error(`seed-demo failed: ${result.stderr.toString()}`)
  return result.stdout.toString()
}

/**
 * Brings a copy's membership rollup current before it is served, as `serve` does in its first
 * seconds: a seeded file has none, and a first start rolls the large set's six years of days (about
 * 2 s) beside the requests a bench times, which then lands in its slowest figures. Returns whether
 * there was a rollup to bring current: an older executable without the command (and without a
 * rollup) leaves the file as it was.
 */
export function rollUpBeforeServing(executable: string, db: string, cwd: string): boolean {
  const result = Bun.spawnSync([executable, 'rollup', 'rebuild', '--db', db], {
    cwd,
    env: cleanEnv(),
    stdout: 'ignore',
    stderr: 'pipe',
  })
  if (result.exitCode === 0) return true
  const stderr = result.stderr.toString()
  if (stderr.includes('unknown command rollup')) return false
  throw new Error(`${executable} rollup rebuild failed: ${stderr}`)
}

/**
 * Makes a copy ready to serve as a gym's box that has run since its upgrade would be: migrated by
 * `executable`, and its membership rollup current (rollUpBeforeServing). Returns whether there was
 * a rollup to bring current.
 */
export function readyToServe(executable: string, db: string, cwd: string): boolean {
  const migrated = Bun.spawnSync([executable, 'migrate', '--db', db], {
    cwd,
    env: cleanEnv(),
    stdout: 'ignore',
    stderr: 'pipe',
  })
  if (migrated.exitCode !== 0) throw new Error(`${executable} migrate failed: ${migrated.stderr.toString()}`)
  return rollUpBeforeServing(executable, db, cwd)
}

export interface Served {
  base: string
  pid: number
  stderr(): string
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>
}

/** Starts a server command (`... --port 0`), waits for its "listening" line and for /healthz. */
export async function startServing(
  command: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Served> {
  const proc = Bun.spawn(command, {
    cwd,
    env: cleanEnv(env),
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
  let base: string | null = null
  while (base === null) {
    for (const line of stderr.split('\n')) {
      if (!line.includes('"listening"')) continue
      try {
        const url = new URL(String((JSON.parse(line) as { url: string }).url))
        base = `http://127.0.0.1:${url.port}`
      } catch {
        // a partial line
      }
    }
    if (base !== null) break
    if (proc.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`${command.join(' ')} did not start:\n${stderr}`)
    }
    await sleep(20)
  }
  for (;;) {
    try {
      const res = await fetch(`${base}/healthz`)
      await res.arrayBuffer()
      if (res.status === 200) break
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${command.join(' ')}: /healthz did not answer:\n${stderr}`)
    }
    await sleep(20)
  }
  return { base, pid: proc.pid, stderr: () => stderr, stop }
}

const ACTIVE = ACTIVE_STATUSES.map((s) => `'${s}'`).join(', ')

/**
 * The barcodes of each category, from the seeded file (read-only), by the door's own rules as of
 * today in the organization's zone: the reads mirror src/core/door/queries.ts. Members of a
 * type with access hours are left out of `valid` (whether they get in depends on the hour).
 */
export function barcodesByCategory(file: string, now: Date): Barcodes & { searchTerms: string[] } {
  const sqlite = new Database(file, { readonly: true })
  try {
    const org = sqlite.query('SELECT time_zone, waiver_required FROM organization WHERE id = 1').get() as {
      time_zone: string
      waiver_required: number
    }
    const today = localDate(now, org.time_zone)
    const waiverOk = `(${org.waiver_required} = 0 OR EXISTS (SELECT 1 FROM customer_documents d
        WHERE d.customer_id = c.id AND d.kind = 'waiver' AND (d.expiration_date IS NULL OR d.expiration_date >= $today)))`
    const noPreventingAlert = `NOT EXISTS (SELECT 1 FROM customer_alerts a
        WHERE a.customer_id = c.id AND a.is_active = 1 AND a.prevents_check_in = 1)`
    const list = (where: string) =>
      (
        sqlite
          .query(
            `SELECT c.barcode FROM customers c WHERE c.is_active = 1 AND c.barcode IS NOT NULL AND ${where} ORDER BY c.id`,
          )
          .all({ today }) as { barcode: string }[]
      ).map((r) => r.barcode)
    const valid = list(`${noPreventingAlert} AND ${waiverOk} AND EXISTS (
        SELECT 1 FROM membership_members mm
        JOIN customer_memberships cm ON cm.id = mm.customer_membership_id
        JOIN membership_types mt ON mt.id = cm.membership_type_id
        WHERE mm.customer_id = c.id AND cm.status IN (${ACTIVE}) AND mm.is_frozen = 0
          AND cm.start_date <= $today AND (mt.purchase_type = 'REC' OR cm.end_date IS NULL OR cm.end_date >= $today)
          AND mt.access_hours IS NULL)`)
    const noEntry = list(`${noPreventingAlert} AND ${waiverOk}
        AND NOT EXISTS (SELECT 1 FROM membership_members mm JOIN customer_memberships cm ON cm.id = mm.customer_membership_id
                        WHERE mm.customer_id = c.id AND cm.status IN (${ACTIVE}))
        AND NOT EXISTS (SELECT 1 FROM customer_entry_passes p WHERE p.owner_id = c.id AND p.entries_remaining > 0
                        AND (p.expiry_date IS NULL OR p.expiry_date >= $today))
        AND NOT EXISTS (SELECT 1 FROM reservations r WHERE r.customer_id = c.id AND r.is_cancelled = 0)`)
    const alert = list(`NOT (${noPreventingAlert} AND ${waiverOk})`)
    // Nine digits: the demo's barcodes have eight, so none of these is anyone's.
    const unknown = Array.from({ length: 1000 }, (_, i) =>
      String(900_000_000 + ((i * 7_919_993) % 99_999_999)),
    )
    const searchTerms = (
      sqlite.query('SELECT DISTINCT last_name FROM customers ORDER BY last_name LIMIT 400').all() as {
        last_name: string
      }[]
    ).map((r) => r.last_name)
    return { valid, unknown, noEntry, alert, searchTerms }
  } finally {
    sqlite.close()
  }
}

/** Counts rows on a short-lived read-only connection (the server holds the write side). */
export function countRows(file: string, sql: string, ...params: (string | number)[]): number {
  const sqlite = new Database(file, { readonly: true })
  try {
    return (sqlite.query(sql).get(...params) as { n: number }).n
  } finally {
    sqlite.close()
  }
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

/**
 * A `bun --cpu-prof` profile (Chrome .cpuprofile format) in two lists, largest first, as [label,
 * percent of the sampled time]: self time by function (where the thread was), and inclusive time of
 * the project's own functions (src/, what each step of a request costs with everything it calls).
 * With `window` (Date.now() ms), only the samples taken within it.
 */
export function summarizeProfile(
  dir: string,
  top = 14,
  window?: { fromMs: number; toMs: number },
): { self: Array<[string, number]>; ours: Array<[string, number]> } {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))
  if (!file) return { self: [], ours: [] }
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: ProfileNode[]
    samples: number[]
    timeDeltas: number[]
    /** µs since the epoch (Bun's profiles): a window of Date.now() ms picks samples by it */
    startTime: number
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const label = (node: ProfileNode | undefined) => {
    const frame = node?.callFrame
    const url = frame?.url.replace(`file://${ROOT}/`, '').replace(/^.*node_modules\//, '')
    return `${frame?.functionName || '(anonymous)'}${url ? ` ${url}:${frame!.lineNumber + 1}` : ''}`
  }
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let total = 0
  let atUs = profile.startTime
  profile.samples.forEach((id, i) => {
    atUs += profile.timeDeltas[i] ?? 0
    if (window && (atUs < window.fromMs * 1000 || atUs > window.toMs * 1000)) return
    const delta = profile.timeDeltas[i + 1] ?? 0
    total += delta
    const leaf = label(byId.get(id))
    self.set(leaf, (self.get(leaf) ?? 0) + delta)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at))
      if (!name.includes(' src/') || seen.has(name)) continue
      seen.add(name)
      inclusive.set(name, (inclusive.get(name) ?? 0) + delta)
    }
  })
  const topOf = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, t]): [string, number] => [name, (100 * t) / total])
  return { self: topOf(self), ours: topOf(inclusive) }
}

const TICKS_PER_SECOND = 100

/**
 * CPU time (user + system, ms) a process, or (with `tid`) one of its threads, has used so far, from
 * /proc; NaN where there is no /proc.
 */
export function processCpuMs(pid: number, tid?: string): number {
  try {
    const stat = readFileSync(
      tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`,
      'utf8',
    )
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
  } catch {
    return NaN
  }
}

/** The whole machine's CPU time so far, ms, all cores together. */
export interface MachineCpu {
  /** running anything: user, nice, system, irq, softirq */
  busyMs: number
  /** taken by the hypervisor for other guests while this machine had work to run */
  stealMs: number
  /** everything, idle and iowait included */
  totalMs: number
}

/** The machine's CPU time so far, from /proc/stat; NaN fields where there is no /proc. */
export function machineCpu(): MachineCpu {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    // user nice system idle iowait irq softirq steal ...
    const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0)
    const steal = fields[7]!
    return {
      busyMs: ms(total - fields[3]! - fields[4]! - steal),
      stealMs: ms(steal),
      totalMs: ms(total),
    }
  } catch {
    return { busyMs: NaN, stealMs: NaN, totalMs: NaN }
  }
}

/** The share of the machine's CPU time the hypervisor took since `before`, in percent. */
export function stealPercent(before: MachineCpu, after = machineCpu()): number {
  return (100 * (after.stealMs - before.stealMs)) / (after.totalMs - before.totalMs)
}

/**
 * Logs in as the demo admin and returns helpers bound to one running server on `file`: the door
 * target, a JSON API caller, fresh locations, the check-ins recorded at given locations, and the
 * server's CPU time so far.
 */
export async function connectSession(served: Served, file: string) {
  const login = await fetch(`${served.base}/api/get-token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD }),
  })
  const token = ((await login.json()) as { token: string }).token
  if (!token) throw new Error(`get-token answered ${login.status}`)
  const target = { base: served.base, token }
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${served.base}${path}`, {
      method,
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`)
    return text ? (JSON.parse(text) as Record<string, unknown>) : {}
  }
  const template = await api('GET', '/api/gyms/1/')
  let made = 0
  /** Fresh locations like the demo's first gym (same zone, same combine-same-day setting). */
  const newGyms = async (count: number) => {
    const ids: number[] = []
    for (let i = 0; i < count; i++) {
      const gym = await api('POST', '/api/gyms/', {
        name: `Bench door ${served.pid}.${++made}`,
        time_zone: template.time_zone,
        combine_same_day_check_ins: template.combine_same_day_check_ins,
      })
      ids.push(gym.id as number)
    }
    return ids
  }
  const checkIns = (gymIds: number[]) =>
    countRows(file, `SELECT count(*) AS n FROM check_ins WHERE gym_id IN (${gymIds.join(',')})`)
  const cpuMs = () => processCpuMs(served.pid)
  return { target, api, newGyms, checkIns, cpuMs }
}

/**
 * CPU so far, ms, of the server's own thread (where every request is answered) and of its worker
 * threads together (the reader, the checkpointer: Bun names each "Worker").
 */
export function threadCpuMs(pid: number): { main: number; workers: number } {
  let workers = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (tid !== String(pid) && readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === 'Worker')
        workers += processCpuMs(pid, tid)
    } catch {
      // a thread that ended meanwhile
    }
  }
  return { main: processCpuMs(pid, String(pid)), workers }
}
