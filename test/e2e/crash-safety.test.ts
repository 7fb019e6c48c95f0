/**
 * Crash safety of the door: one crash trial (crash-trial.ts) with the built executable killed by
 * SIGKILL in the middle of door and desk load. Every check-in a controller was told about (a 200)
 * must be in the history exactly once, every customer the desk was told about (a 201) must be there,
 * and every check-in that committed, acknowledged or not, must reach the webhook receiver after the
 * restart (the outbox row commits with the check-in; the dispatcher resumes from the file).
 * test/bench/crash-trials.ts runs twenty such trials, killed at random moments.
 */
import { afterAll, afterEach, expect, test } from 'bun:test'
import { runCrashTrial, seedDemo } from './crash-trial.ts'
import { removeTempDirs, request, stopAll } from './helpers.ts'

afterEach(stopAll)
afterAll(removeTempDirs)

test("check-ins acknowledged before a SIGKILL are kept exactly once and every committed one is delivered after the restart; the desk's acknowledged sign-ups are kept", async () => {
  const trial = await runCrashTrial({ seededDb: await seedDemo() })

  // The kill landed mid-load, after both kinds of write were acknowledged.
  expect(trial.acks.length).toBeGreaterThanOrEqual(60)
  expect(trial.signedUp.length).toBeGreaterThanOrEqual(3)
  expect(trial.lostSignUps).toEqual([])
  expect(trial.lostCheckIns).toEqual([])
  expect(trial.duplicatedScans).toEqual([])

  // ... and the customers' check-in history, read through the API, says so too.
  const rowOf = (ack: (typeof trial.acks)[0]) =>
    trial.rows.find((r) => r.barcode === ack.barcode && r.gym_id === ack.gymId)!
  const acknowledgedRows = trial.acks.map(rowOf)
  for (const customerId of new Set(acknowledgedRows.map((r) => r.customer_id))) {
    const path = `/api/check-ins/?customer_id=${customerId}&page_size=100`
    const history = await request(trial.server.base, 'GET', path, { token: trial.token })
    expect(history.status).toBe(200)
    const ids: number[] = history.body.results.map((c: { id: number }) => c.id)
    for (const row of acknowledgedRows.filter((r) => r.customer_id === customerId)) {
      expect(ids.filter((id) => id === row.id)).toEqual([row.id])
    }
  }

  // Every committed check-in reached the receiver, once per event, describing its own check-in.
  expect(trial.undelivered).toEqual([])
  expect(trial.duplicatedDeliveries).toEqual([])
  expect(trial.phantomDeliveries).toEqual([])
  expect(trial.rows.length).toBeGreaterThanOrEqual(trial.acks.length)
}, 60_000)
