/**
 * Crash trials: the BUILT executable killed with SIGKILL at a random moment of door, desk and
 * webhook load, again and again, each trial on a fresh copy of the `small` demo set (the trial
 * itself: test/e2e/crash-trial.ts, which says exactly what each count means). About seven seconds a
 * trial.
 *
 *   npm run bench -- crash-trials
 *   npx bun run test/bench/crash-trials.ts [--trials 20] [--controllers 8]
 *
 * Each trial sets off the kill after a random number of acknowledged check-ins (20 to 200) and a
 * random delay (0 to 20 ms), then restarts the server on the same file and waits for the webhooks.
 * Prints one row a trial and the totals. Everything acknowledged must be kept, nothing recorded or
 * delivered twice, every committed check-in delivered: exits 1 if any lost, duplicated, undelivered
 * or phantom count is not zero. Redelivered (the same event id sent again after the crash) is what
 * at-least-once delivery allows, and is printed only.
 */
import { runCrashTrial, seedDemo } from '../e2e/crash-trial.ts'
import { ensureBuilt, removeTempDirs, stopAll } from '../e2e/helpers.ts'
import { numberArg } from './_args.ts'
import { formatTable, loadAverage } from './_table.ts'

const trials = numberArg('--trials', 20)
const controllers = numberArg('--controllers', 8)

const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1))

const header = [
  'trial',
  'kill after',
  'acked check-ins',
  'acked sign-ups',
  'committed',
  'lost',
  'duplicated',
  'undelivered',
  'phantom',
  'redelivered',
]
const rows: string[][] = [header]
const totals = new Array<number>(header.length - 2).fill(0)

ensureBuilt()
const seededDb = await seedDemo()
try {
  for (let trial = 1; trial <= trials; trial++) {
    const killAfter = randomInt(20, 200)
    const killDelayMs = randomInt(0, 20)
    const result = await runCrashTrial({ seededDb, controllers, killAfter, killDelayMs })
    const counts = [
      result.acks.length,
      result.signedUp.length,
      result.rows.length,
      result.lostCheckIns.length + result.lostSignUps.length,
      result.duplicatedScans.length + result.duplicatedDeliveries.length,
      result.undelivered.length,
      result.phantomDeliveries.length,
      result.redelivered,
    ]
    counts.forEach((n, i) => (totals[i]! += n))
    rows.push([String(trial), `${killAfter} + ${killDelayMs} ms`, ...counts.map(String)])
    console.log(
      `trial ${trial}: ${header
        .slice(2)
        .map((name, i) => `${name} ${counts[i]}`)
        .join(', ')}`,
    )
    await stopAll()
  }
} finally {
  await stopAll()
  removeTempDirs()
}
rows.push(['total', '', ...totals.map(String)])

console.log(
  `\n${trials} crash trials, ${controllers} door controllers and the desk (load ${loadAverage()})\n`,
)
console.log(formatTable(rows, { leftColumns: 2, rule: true }))
const [, , , lost, duplicated, undelivered, phantom] = totals
const failures = lost! + duplicated! + undelivered! + phantom!
console.log(failures === 0 ? '\nnothing lost, duplicated or undelivered' : `\n${failures} failures`)
process.exit(failures === 0 ? 0 : 1)
