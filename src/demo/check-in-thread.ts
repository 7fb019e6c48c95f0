import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoCheckInWorkerUrl } from '../worker-urls.ts'
import type { CheckInPlan } from './check-in-rows.ts'

/*
 * The check-ins' rows are made and written on a thread of their own (check-in-worker.ts) while
 * this one writes everything else: the large set's million and a half of them take as long to
 * make and write as all the other tables together, and a connection writes on one thread. The
 * worker writes them into a database file of their own, which the seeding connection then copies
 * into check_ins in one statement.
 */

/** Main thread -> worker: the check-ins to make, the file to write them into and check_ins' CREATE TABLE. */
export interface CheckInRequest {
  plan: CheckInPlan
  path: string
  table: string
}

/** Worker -> main thread. */
export type CheckInReply =
  /** `at`: when, as performance.timeOrigin + performance.now(), which every thread shares. */
  { type: 'written'; rows: number; at: number } | { type: 'done' } | { type: 'failed'; message: string }

export interface CheckInThread {
  /** Resolves once every check-in is in the file and the worker has closed it. */
  written: Promise<void>
  stop(): void
}

/**
 * Starts the worker on `plan`, which it takes over (the plan's columns are left empty here),
 * writing into the new file `file.path` a table made by `file.table`. `progress` hears how many
 * check-ins are written as the worker goes, and when: this thread may be in the middle of a
 * statement when the worker tells it.
 */
export function startCheckIns(
  plan: CheckInPlan,
  file: { path: string; table: string },
  progress: (rows: number, at: number) => void,
): CheckInThread {
  const worker = new Worker(demoCheckInWorkerUrl)
  const written = new Promise<void>((resolve, reject) => {
    const fail = (message: string) => reject(new Error(`demo check-ins: ${message}`))
    worker.addEventListener('message', ({ data }: MessageEvent<CheckInReply>) => {
      if (data.type === 'written') progress(data.rows, data.at)
      else if (data.type === 'done') resolve()
      else fail(data.message)
    })
    worker.addEventListener('error', (event) => fail(event.message))
  })
  // Until the caller gets to awaiting it, a failure must not count as an unhandled rejection.
  written.catch(() => {})
  // The plan's columns are handed over, not copied (a copy of the large set's took most of a
  // second): they are the worker's from here on.
  const columns = [plan.order, ...Object.values(plan.visits)].map((column) => column.buffer as ArrayBuffer)
  worker.postMessage({ plan, ...file } satisfies CheckInRequest, columns)
  return { written, stop: () => worker.terminate() }
}

/**
 * Runs `load` with the path of a new file for the check-ins in a directory of its own under the
 * system's temporary directory, and removes both after.
 */
export async function withCheckInsFile<T>(load: (path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'belay-demo-'))
  try {
    return await load(join(dir, 'check-ins.sqlite3'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
