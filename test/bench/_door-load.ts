/**
 * The door benchmark's load: simulated door controllers (async loops over keep-alive `fetch`, one
 * request in flight each, as a controller waits for open / do-not-open before the next scan), the
 * scan mix, the other API traffic, and the latency statistics. Used by test/bench/door.ts.
 */

/** Barcodes by what the door should answer, read from the seeded database (see _door-setup.ts). */
export interface Barcodes {
  /** active members with an entry method now: 200, a new check-in */
  valid: string[]
  /** no such customer: 404 */
  unknown: string[]
  /** a customer with no membership, pass or reservation: 400 no entry method */
  noEntry: string[]
  /** a customer with an alert that prevents check-in, or without a valid waiver: 400 alert */
  alert: string[]
}

export type Category = 'valid' | 'duplicate' | 'unknown' | 'noEntry' | 'alert'
export const CATEGORIES: Category[] = ['valid', 'duplicate', 'unknown', 'noEntry', 'alert']

/**
 * Share of each kind of scan. A duplicate rescans a barcode this controller admitted a moment ago
 * (someone badging twice); a valid scan takes the controller's next not-yet-scanned member, so a
 * "valid" scan is a new check-in unless the controller has gone through its whole deck.
 */
export const MIX: Record<Category, number> = {
  valid: 0.7,
  duplicate: 0.1,
  unknown: 0.08,
  noEntry: 0.06,
  alert: 0.06,
}

/** Small, fast, seedable PRNG (mulberry32), so a run's scan sequence is reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Latencies (ms) and outcomes of a set of requests. */
export class Recorder {
  private latencies = new Float64Array(1 << 16)
  count = 0
  /** category -> HTTP status (or "error") -> count */
  readonly outcomes = new Map<string, Map<string, number>>()
  errors = 0
  firstError = ''

  add(ms: number, category: string, status: number | 'error'): void {
    if (this.count === this.latencies.length) {
      const bigger = new Float64Array(this.latencies.length * 2)
      bigger.set(this.latencies)
      this.latencies = bigger
    }
    this.latencies[this.count++] = ms
    let byStatus = this.outcomes.get(category)
    if (!byStatus) this.outcomes.set(category, (byStatus = new Map()))
    byStatus.set(String(status), (byStatus.get(String(status)) ?? 0) + 1)
  }

  /** p in [0, 1]; nearest-rank. */
  percentile(p: number): number {
    if (this.count === 0) return NaN
    const sorted = this.sorted()
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
  }

  max(): number {
    return this.count === 0 ? NaN : this.sorted()[this.count - 1]!
  }

  /** How many took longer than `ms`. */
  over(ms: number): number {
    let n = 0
    for (let i = 0; i < this.count; i++) if (this.latencies[i]! > ms) n++
    return n
  }

  private sortedCache: Float64Array | null = null
  private sortedCount = -1
  private sorted(): Float64Array {
    if (this.sortedCache === null || this.sortedCount !== this.count) {
      this.sortedCache = this.latencies.slice(0, this.count).sort()
      this.sortedCount = this.count
    }
    return this.sortedCache
  }

  /** "valid 200×5123 400×2, unknown 404×612, ..." */
  describeOutcomes(): string {
    return [...this.outcomes.entries()]
      .map(
        ([category, byStatus]) =>
          `${category} ${[...byStatus.entries()].map(([s, n]) => `${s}×${n}`).join(' ')}`,
      )
      .join(', ')
  }
}

export interface Controller {
  /** the location it stands at (its `location_id`) */
  gymId: number
  deck: string[]
  position: number
  /** barcodes it admitted lately, for rescans */
  recent: string[]
  random: () => number
  /** times it ran out of fresh members and started over (its later valid scans are duplicates) */
  wrapped: number
}

export function makeControllers(
  count: number,
  gymIds: number[],
  barcodes: Barcodes,
  seed: number,
): Controller[] {
  return Array.from({ length: count }, (_, i) => {
    const random = rng(seed * 1000 + i + 1)
    return {
      gymId: gymIds[i % gymIds.length]!,
      deck: shuffled(barcodes.valid, random),
      position: 0,
      recent: [],
      random,
      wrapped: 0,
    }
  })
}

const pickFrom = (items: readonly string[], random: () => number) =>
  items[Math.floor(random() * items.length)]!

/** The next scan of a controller: a category drawn from MIX and a barcode of that category. */
export function nextScan(c: Controller, barcodes: Barcodes): { category: Category; barcode: string } {
  let r = c.random()
  let category: Category = 'valid'
  for (const k of CATEGORIES) {
    if (r < MIX[k]) {
      category = k
      break
    }
    r -= MIX[k]
  }
  if (category === 'duplicate' && c.recent.length === 0) category = 'valid'
  switch (category) {
    case 'valid': {
      if (c.position >= c.deck.length) {
        c.position = 0
        c.wrapped++
      }
      const barcode = c.deck[c.position++]!
      c.recent.push(barcode)
      if (c.recent.length > 32) c.recent.shift()
      return { category, barcode }
    }
    case 'duplicate':
      return { category, barcode: pickFrom(c.recent, c.random) }
    default:
      return { category, barcode: pickFrom(barcodes[category], c.random) }
  }
}

export interface DoorTarget {
  base: string
  token: string
}

/** One open-door scan; resolves with its status once the whole (plain-text) body is read. */
export async function scanOnce(target: DoorTarget, gymId: number, barcode: string): Promise<number> {
  const res = await fetch(`${target.base}/api/gym-endpoints/open-door-check-in/${barcode}/`, {
    method: 'POST',
    headers: { authorization: `Token ${target.token}`, 'content-type': 'application/json' },
    body: `{"location_id":${gymId}}`,
    signal: AbortSignal.timeout(10_000),
  })
  await res.arrayBuffer()
  return res.status
}

/**
 * Runs the controllers until `durationMs` has passed. Unpaced, each sends its next scan as soon as
 * the last one was answered (the most the server can do: latency is then mostly queueing). Paced at
 * `ratePerSecond` in all, each controller's k-th scan is due at a fixed time and its latency counts
 * from that time, so a slow answer that delays the next scans is charged to them too (no
 * coordinated omission). Returns the recorder and the wall-clock time it really ran.
 */
export async function runControllers(
  target: DoorTarget,
  controllers: Controller[],
  barcodes: Barcodes,
  durationMs: number,
  ratePerSecond?: number,
): Promise<{ recorder: Recorder; elapsedMs: number }> {
  const recorder = new Recorder()
  const started = performance.now()
  const deadline = started + durationMs
  const intervalMs = ratePerSecond ? (1000 * controllers.length) / ratePerSecond : 0
  await Promise.all(
    controllers.map(async (c, index) => {
      // Paced controllers start spread over one interval, not all at once.
      let due = started + (intervalMs * index) / controllers.length
      while (performance.now() < deadline) {
        if (intervalMs > 0) {
          const wait = due - performance.now()
          if (wait > 0) await sleep(wait)
        }
        const { category, barcode } = nextScan(c, barcodes)
        const t0 = intervalMs > 0 ? due : performance.now()
        due += intervalMs
        try {
          const status = await scanOnce(target, c.gymId, barcode)
          recorder.add(performance.now() - t0, category, status)
        } catch (error) {
          recorder.add(performance.now() - t0, category, 'error')
          recorder.errors++
          recorder.firstError ||= error instanceof Error ? error.message : String(error)
          await sleep(10)
        }
      }
    }),
  )
  return { recorder, elapsedMs: performance.now() - started }
}

/**
 * Back-office traffic beside the door, in turn: the frozen-members report, a customer search, and a
 * walk-in signed up at the desk (a new customer: a write, committed with its own fsync).
 */
export async function runApiTraffic(
  target: DoorTarget,
  searchTerms: string[],
  until: () => boolean,
  clients = 1,
): Promise<{ members: Recorder; search: Recorder; signUp: Recorder }> {
  const members = new Recorder()
  const search = new Recorder()
  const signUp = new Recorder()
  const random = rng(4242)
  let walkIns = 0
  const send = async (recorder: Recorder, label: string, path: string, body?: unknown) => {
    const t0 = performance.now()
    try {
      const res = await fetch(`${target.base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Token ${target.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      })
      await res.arrayBuffer()
      recorder.add(performance.now() - t0, label, res.status)
    } catch {
      recorder.add(performance.now() - t0, label, 'error')
      recorder.errors++
    }
  }
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!until()) {
        await send(members, 'members', '/api/members/?status_in=frozen')
        if (until()) break
        const term = encodeURIComponent(pickFrom(searchTerms, random))
        await send(search, 'search', `/api/customers/?search=${term}`)
        if (until()) break
        await send(signUp, 'sign-up', '/api/customers/', {
          first_name: 'Walk',
          last_name: `In ${++walkIns}`,
          birthday: '1990-01-01',
        })
      }
    }),
  )
  return { members, search, signUp }
}
