/**
 * OpenAPI fuzz benchmark: the requests of the fuzz test (test/fuzz/requests.ts, every operation of
 * the served document, valid and mutated) against the BUILT executable over loopback, many more of
 * them, with the server's memory watched. Loopback only; one temporary directory, removed at the end.
 *
 *   npm run bench -- fuzz
 *   npx bun run test/bench/fuzz.ts [--requests 50000] [--rounds 1] [--clients 4] [--seed N]
 *                                  [--no-passwords]
 *
 * The database is the fuzz test's (prepareFuzzTarget: the small demo and the rest) in a file; the
 * server is `belay serve` on it. After a warm-up of 2,000 requests and a pause, the server's idle
 * RSS is read; then each round sends `--requests` requests from `--clients` concurrent clients and
 * the idle RSS is read again after a pause. Every answer is judged as the fuzz test judges it
 * (test/helpers/response-check.ts); the figures printed are the requests, their statuses by class,
 * the 5xx (which must be 0), the undocumented statuses and the bodies that do not match the document
 * (each with a first example), and requests per second. Exits non-zero on any 5xx or mismatch.
 * More rounds tell a leak from memory the runtime keeps: a leak grows every round. --no-passwords
 * leaves out the operations that run argon2 (64 MiB a hash), to tell their memory from the rest's.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { openDatabase } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { checkResponse } from '../helpers/response-check.ts'
import {
  anyRequest,
  describeRequest,
  PASSWORD_OPERATIONS,
  toRequest,
  type FuzzRequest,
} from '../fuzz/requests.ts'
import { prepareFuzzTarget } from '../fuzz/target.ts'
import { numberArg } from './_args.ts'
import { BELAY, buildIfNeeded, startServing } from './_door-setup.ts'

const REQUESTS = numberArg('--requests', 50_000)
const ROUNDS = numberArg('--rounds', 1)
const CLIENTS = numberArg('--clients', 4)
const SEED = numberArg('--seed', Date.now() % 2 ** 31)
const NO_PASSWORDS = process.argv.includes('--no-passwords')
const WARM_UP = 2_000
const IDLE_PAUSE_MS = 5_000
/** Requests generated at a time: the bodies of 50,000 at once would weigh on this process. */
const BATCH = 500

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Resident set size of a process now, MB. */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) / 1024 : NaN
}

console.log(`executable: ${buildIfNeeded()}; seed ${SEED}${NO_PASSWORDS ? '; no password operations' : ''}`)
const dir = mkdtempSync(join(tmpdir(), 'belay-bench-fuzz-'))
const file = join(dir, 'belay.sqlite3')
// This process keeps its own connection to the file: the fuzzer's token is renewed through it.
const connection = openDatabase(file)
await migrateToLatest(connection.db)
const target = await prepareFuzzTarget(connection.db)
const served = await startServing([BELAY, 'serve', '--host', '127.0.0.1', '--port', '0', '--db', file], dir)

/** The server as response-check.ts fetches the document from it: a Request's path against `base`. */
const app = {
  handle: (request: Request) => {
    const url = new URL(request.url)
    return fetch(`${served.base}${url.pathname}${url.search}`, request)
  },
  routes: [],
}
const doc = await (await fetch(`${served.base}/swagger/json`)).json()
const requests = NO_PASSWORDS
  ? anyRequest(doc, target.known).filter((request) => !PASSWORD_OPERATIONS.has(request.operation))
  : anyRequest(doc, target.known)

interface Tally {
  sent: number
  byClass: Record<string, number>
  serverErrors: number
  undocumented: number
  mismatched: number
  examples: string[]
}

const newTally = (): Tally => ({
  sent: 0,
  byClass: {},
  serverErrors: 0,
  undocumented: 0,
  mismatched: 0,
  examples: [],
})

async function send(request: FuzzRequest, tally: Tally) {
  const sent = toRequest(served.base, request, target.tokens)
  const response = await fetch(sent, { signal: AbortSignal.timeout(30_000) })
  const klass = `${String(response.status)[0]}xx`
  tally.sent++
  tally.byClass[klass] = (tally.byClass[klass] ?? 0) + 1
  if (response.status >= 500) {
    tally.serverErrors++
    tally.examples.push(`${response.status}: ${describeRequest(request)}`)
  }
  try {
    await checkResponse(app, sent, response)
  } catch (error) {
    const message = String((error as Error).message)
    if (/ documents .* not \d+$|must be 40[45]/.test(message)) tally.undocumented++
    else tally.mismatched++
    tally.examples.push(`${message.split('\n').slice(0, 3).join(' ')}\n    ${describeRequest(request)}`)
  }
  if (request.caller === 'fuzzer' && response.status === 401) await target.renewFuzzerToken()
}

/** `count` requests from `seed` on, `CLIENTS` at a time. */
async function run(count: number, seed: number, tally: Tally) {
  for (let batch = 0; batch * BATCH < count; batch++) {
    const queue = fc.sample(requests, { seed: seed + batch, numRuns: Math.min(BATCH, count - batch * BATCH) })
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let request = queue.shift(); request !== undefined; request = queue.shift()) {
          await send(request, tally)
        }
      }),
    )
  }
}

let failed = false
try {
  console.log(`RSS after start: ${rssMb(served.pid).toFixed(0)} MB`)
  await run(WARM_UP, SEED + 1_000_000, newTally())
  await sleep(IDLE_PAUSE_MS)
  const idleBefore = rssMb(served.pid)
  console.log(
    `idle RSS after start and ${WARM_UP.toLocaleString('en-US')} warm-up requests: ${idleBefore.toFixed(0)} MB`,
  )
  for (let round = 1; round <= ROUNDS; round++) {
    const tally = newTally()
    const started = performance.now()
    await run(REQUESTS, SEED + round * 10_000, tally)
    const seconds = (performance.now() - started) / 1000
    const peak = rssMb(served.pid)
    await sleep(IDLE_PAUSE_MS)
    const idleAfter = rssMb(served.pid)
    const classes = Object.entries(tally.byClass)
      .sort()
      .map(([k, n]) => `${k} ${n.toLocaleString('en-US')}`)
      .join(', ')
    console.log(
      `round ${round}: ${tally.sent.toLocaleString('en-US')} requests in ${seconds.toFixed(1)} s ` +
        `(${(tally.sent / seconds).toFixed(0)}/s): ${classes}; 5xx ${tally.serverErrors}, ` +
        `undocumented statuses ${tally.undocumented}, schema mismatches ${tally.mismatched}; ` +
        `RSS at the end ${peak.toFixed(0)} MB, idle after ${idleAfter.toFixed(0)} MB`,
    )
    for (const example of tally.examples.slice(0, 5)) console.log(`  ${example}`)
    if (tally.serverErrors + tally.undocumented + tally.mismatched > 0) failed = true
  }
} finally {
  await served.stop()
  await connection.close()
  rmSync(dir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
