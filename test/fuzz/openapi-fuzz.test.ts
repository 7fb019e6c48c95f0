/**
 * The API against requests generated from its own OpenAPI document (test/fuzz/requests.ts): every
 * operation, with valid bodies and filters and with the same mutated. Whatever arrives, the answer
 * is below 500, its status is one the document gives for that operation (or the 404 and 405 of a
 * path or method it lacks), in a media type the document gives for that status, with a body that
 * parses and matches the documented schema: test/helpers/app.ts checks each response against the
 * document (response-check.ts) and throws on a mismatch.
 *
 * Two families are held to more than that, each by a property of its own: an id in a path spelled
 * any way but its digits (0x0A, 1e1, +1, ' 1', digits past the largest safe integer) is 404 and
 * changes nothing; a JSON body with a lone surrogate in one of its text fields never succeeds.
 *
 * The seed is printed; `FUZZ_SEED=<seed> bun test test/fuzz` runs the same requests again (the
 * app's clock is fixed, so the same seed gives the same answers), and `FUZZ_RUNS=<n>` sets how many.
 * A failure names the request (fast-check's seed, path and shrunk counterexample, and the request
 * itself as sent).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { makeTestApp, ORIGIN, type TestApp } from '../helpers/app.ts'
import {
  anyRequest,
  describeRequest,
  loneSurrogateRequest,
  otherIdSpellingRequest,
  toRequest,
  type FuzzRequest,
} from './requests.ts'
import { prepareFuzzTarget, type FuzzTarget } from './target.ts'

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000)
/** Each family's property gets a tenth of the runs, the whole API the rest. */
const FAMILY_RUNS = Math.max(1, Math.round(RUNS / 10))
/** The run's own limit: a busy machine may take several times the usual quarter of a minute. */
const TIMEOUT_MS = 120_000

let t: TestApp
let target: FuzzTarget
let doc: any

beforeAll(async () => {
  t = await makeTestApp()
  target = await prepareFuzzTarget(t.db)
  doc = (await t.request('GET', '/swagger/json')).body
})

afterAll(() => t.close())

/** Sends one request; a 401 to the fuzzer renews its token (see FuzzTarget.renewFuzzerToken). */
async function send(request: FuzzRequest) {
  let response: Response
  try {
    response = await t.app.handle(toRequest(ORIGIN, request, target.tokens))
  } catch (error) {
    throw new Error(`${describeRequest(request)}\n${String(error)}`)
  }
  if (request.caller === 'fuzzer' && response.status === 401) await target.renewFuzzerToken()
  return response
}

test(
  'every operation answers generated and mutated requests as its document says, never 5xx',
  async () => {
    console.log(`openapi fuzz: seed ${SEED}, ${RUNS} requests (FUZZ_SEED=${SEED} bun test test/fuzz)`)
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(anyRequest(doc, target.known), async (request) => {
        const response = await send(request)
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        if (response.status >= 500) {
          throw new Error(
            `${describeRequest(request)}\nanswered ${response.status}: ${await response.text()}`,
          )
        }
      }),
      { seed: SEED, numRuns: RUNS - 2 * FAMILY_RUNS, endOnFailure: false },
    )
    // The requests reached the app's handlers, not only its refusals of what cannot be read.
    const answered = (from: number, to: number) =>
      [...statuses].filter(([s]) => s >= from && s < to).reduce((n, [, count]) => n + count, 0)
    expect(answered(200, 300)).toBeGreaterThan((RUNS - 2 * FAMILY_RUNS) / 10)
    expect(answered(400, 401)).toBeGreaterThan((RUNS - 2 * FAMILY_RUNS) / 10)
  },
  TIMEOUT_MS,
)

const changesSoFar = () =>
  Number((t.deps.sqlite.query('SELECT total_changes() AS n').get() as { n: number }).n)

/** Sends as the fuzzer, again with a renewed token if an earlier request revoked it. */
async function sendAsFuzzer(request: FuzzRequest) {
  const response = await send(request)
  return response.status === 401 ? send(request) : response
}

test(
  'an id in a path spelled any way but its digits is 404 on every operation and changes nothing',
  async () => {
    await fc.assert(
      fc.asyncProperty(otherIdSpellingRequest(doc, target.known), async (request) => {
        const before = changesSoFar()
        const response = await sendAsFuzzer(request)
        const body = await response.text()
        if (response.status !== 404 || body !== JSON.stringify({ detail: 'Not found.' }))
          throw new Error(`${describeRequest(request)}\nanswered ${response.status}: ${body}`)
        if (changesSoFar() !== before) throw new Error(`${describeRequest(request)}\nchanged the database`)
      }),
      { seed: SEED, numRuns: FAMILY_RUNS, endOnFailure: false },
    )
  },
  TIMEOUT_MS,
)

test(
  'a JSON body with a lone surrogate in a text field never succeeds',
  async () => {
    await fc.assert(
      fc.asyncProperty(loneSurrogateRequest(doc, target.known), async (request) => {
        const response = await sendAsFuzzer(request)
        if (response.status < 300 || response.status >= 500)
          throw new Error(
            `${describeRequest(request)}\nanswered ${response.status}: ${await response.text()}`,
          )
      }),
      { seed: SEED, numRuns: FAMILY_RUNS, endOnFailure: false },
    )
  },
  TIMEOUT_MS,
)
