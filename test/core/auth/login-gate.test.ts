import { describe, expect, test } from 'bun:test'
import { LoginGate } from '../../../src/core/auth/login-gate.ts'

/** Work the test finishes by hand, to see who runs while it is pending. */
function pending() {
  let finish!: () => void
  const done = new Promise<void>((resolve) => (finish = resolve))
  return { finish, work: async () => (await done, 'done') }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('LoginGate', () => {
  test('runs one at a time, queues the next ones in order, refuses past the queue', async () => {
    const gate = new LoginGate(1, 2)
    const started: number[] = []
    const jobs = [0, 1, 2, 3].map(() => pending())
    const results = jobs.map((job, i) =>
      gate.run(() => {
        started.push(i)
        return job.work()
      }),
    )
    expect(await results[3]).toBe(LoginGate.busy)
    await tick()
    expect(started).toEqual([0])
    expect([gate.runningCount, gate.waitingCount]).toEqual([1, 2])
    jobs[0]!.finish()
    expect(await results[0]).toBe('done')
    await tick()
    expect(started).toEqual([0, 1])
    expect([gate.runningCount, gate.waitingCount]).toEqual([1, 1])
    jobs[1]!.finish()
    jobs[2]!.finish()
    expect(await Promise.all(results.slice(1, 3))).toEqual(['done', 'done'])
    expect(started).toEqual([0, 1, 2])
    expect([gate.runningCount, gate.waitingCount]).toEqual([0, 0])
  })

  test('a failing job frees its slot', async () => {
    const gate = new LoginGate(1, 0)
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await gate.run(async () => 'next')).toBe('next')
  })

  test('with two running, the third waits and the fourth (queue of one) is refused', async () => {
    const gate = new LoginGate(2, 1)
    const jobs = [0, 1, 2, 3].map(() => pending())
    const started: number[] = []
    const results = jobs.map((job, i) =>
      gate.run(() => {
        started.push(i)
        return job.work()
      }),
    )
    expect(await results[3]).toBe(LoginGate.busy)
    expect(started).toEqual([0, 1])
    jobs[1]!.finish()
    await results[1]
    await tick()
    expect(started).toEqual([0, 1, 2])
    jobs[0]!.finish()
    jobs[2]!.finish()
    expect(await Promise.all([results[0], results[2]])).toEqual(['done', 'done'])
  })
})
