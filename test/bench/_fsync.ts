import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs'

/** Microseconds per write + fdatasync. */
export interface FsyncTimes {
  p50: number
  p90: number
  p99: number
  max: number
}

/**
 * The disk's own write + fdatasync, the floor under every durable answer (a door scan is answered
 * only after an fdatasync of the WAL): `count` writes of `bytes` into `file` (made afresh and removed
 * after), each followed by an fdatasync, timed. `growing`: appended, as a WAL grows until it starts
 * over; otherwise overwriting a file already that long, as a WAL does after it has. `everyMs`: one
 * on a schedule every so many ms (the door at a few hundred scans a second) instead of back to back
 * (the disk kept busy). Not a benchmark itself: test/bench/run.ts skips files starting with `_`.
 */
export function timeFsyncs(
  file: string,
  {
    bytes,
    count,
    growing = false,
    everyMs = 0,
  }: { bytes: number; count: number; growing?: boolean; everyMs?: number },
): FsyncTimes {
  const chunk = Buffer.alloc(bytes, 7)
  rmSync(file, { force: true })
  const fd = openSync(file, 'w')
  const micros: number[] = []
  try {
    if (!growing) {
      for (let i = 0; i < count; i++) writeSync(fd, chunk, 0, bytes, i * bytes)
      fdatasyncSync(fd)
    }
    const start = performance.now()
    for (let i = 0; i < count; i++) {
      while (everyMs > 0 && performance.now() < start + i * everyMs) Bun.sleepSync(0.2)
      const t0 = performance.now()
      writeSync(fd, chunk, 0, bytes, i * bytes)
      fdatasyncSync(fd)
      micros.push((performance.now() - t0) * 1000)
    }
  } finally {
    closeSync(fd)
    rmSync(file, { force: true })
  }
  micros.sort((a, b) => a - b)
  const at = (q: number) => micros[Math.floor(q * (micros.length - 1))]!
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) }
}
