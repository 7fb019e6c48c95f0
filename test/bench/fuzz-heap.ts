/**
 * The fuzz benchmark's question asked without a server: do the app's request handlers keep anything
 * of what they are sent? The fuzz test's requests (test/fuzz/requests.ts) go to `createApp(...)` in
 * this process, on the fuzz test's data in memory, with the system clock; after each round a full
 * garbage collection, then the JS heap's size and object count (bun:jsc heapStats) and the
 * process's RSS. A handler that kept what it was sent would grow them every round.
 *
 *   npm run bench -- fuzz-heap
 *   npx bun run test/bench/fuzz-heap.ts [--requests 15000] [--rounds 3] [--seed N] [--no-passwords]
 *
 * The process holds the generator too, so its RSS is not the server's; compare rounds, not figures
 * with test/bench/fuzz.ts.
 */
import { heapStats } from 'bun:jsc'
import fc from 'fast-check'
import { createApp } from '../../src/app.ts'
import { openDatabase } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { systemClock } from '../../src/lib/clock.ts'
import { depsFor, ORIGIN } from '../helpers/app.ts'
import { anyRequest, PASSWORD_OPERATIONS, toRequest } from '../fuzz/requests.ts'
import { prepareFuzzTarget } from '../fuzz/target.ts'
import { numberArg } from './_args.ts'

const REQUESTS = numberArg('--requests', 15_000)
const ROUNDS = numberArg('--rounds', 3)
const SEED = numberArg('--seed', Date.now() % 2 ** 31)
const NO_PASSWORDS = process.argv.includes('--no-passwords')
const BATCH = 500

const connection = openDatabase(':memory:')
await migrateToLatest(connection.db)
const app = createApp(depsFor(connection, systemClock))
// Nothing listens: the login throttle's client address is the same loopback one for every request.
app.server = {
  requestIP: () => ({ address: '127.0.0.1', family: 'IPv4', port: 0 }),
} as unknown as NonNullable<typeof app.server>
const target = await prepareFuzzTarget(connection.db)
const doc = await (await app.handle(new Request(`${ORIGIN}/swagger/json`))).json()
const requests = NO_PASSWORDS
  ? anyRequest(doc, target.known).filter((request) => !PASSWORD_OPERATIONS.has(request.operation))
  : anyRequest(doc, target.known)

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`
function report(label: string) {
  Bun.gc(true)
  const heap = heapStats()
  const pages = connection.sqlite.query('PRAGMA page_count').get() as { page_count: number }
  console.log(
    `${label}: JS heap ${mb(heap.heapSize)}, ${heap.objectCount.toLocaleString('en-US')} objects; ` +
      `RSS ${mb(process.memoryUsage().rss)}; database ${pages.page_count} pages`,
  )
}

console.log(`seed ${SEED}${NO_PASSWORDS ? '; no password operations' : ''}`)
report('before')
for (let round = 1; round <= ROUNDS; round++) {
  for (let batch = 0; batch * BATCH < REQUESTS; batch++) {
    const numRuns = Math.min(BATCH, REQUESTS - batch * BATCH)
    for (const request of fc.sample(requests, { seed: SEED + round * 10_000 + batch, numRuns })) {
      const response = await app.handle(toRequest(ORIGIN, request, target.tokens))
      await response.arrayBuffer()
      if (request.caller === 'fuzzer' && response.status === 401) await target.renewFuzzerToken()
    }
  }
  report(`after round ${round} (${REQUESTS.toLocaleString('en-US')} requests)`)
}
await connection.close()
