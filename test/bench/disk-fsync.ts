/**
 * The disk's own fsync, the floor under every durable check-in: a door scan is answered only after
 * an fdatasync of the WAL, so no software change gets a scan's p99 below this disk's p99.
 *
 *   npx bun run test/bench/disk-fsync.ts      (about 30 s; npm run bench -- disk-fsync)
 *
 * 16 KiB (a group commit's few WAL pages) written and fdatasync'd, into a file that grows (as a
 * WAL does until it starts over) and into one overwritten in place (as a WAL after it has), back to
 * back (the disk busy) and one every 5 ms (the door at a few hundred scans a second). In os.tmpdir();
 * TMPDIR picks the disk.
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-fsync-'))
const file = join(dir, 'fsync.bin')
const chunk = Buffer.alloc(16 * 1024, 7)

function measure(label: string, overwrite: boolean, count: number, everyMs: number): void {
  rmSync(file, { force: true })
  const fd = openSync(file, 'w')
  if (overwrite) {
    for (let i = 0; i < count; i++) writeSync(fd, chunk, 0, chunk.length, i * chunk.length)
    fdatasyncSync(fd)
  }
  const micros: number[] = []
  const start = performance.now()
  for (let i = 0; i < count; i++) {
    while (everyMs > 0 && performance.now() < start + i * everyMs) Bun.sleepSync(0.2)
    const t0 = performance.now()
    writeSync(fd, chunk, 0, chunk.length, i * chunk.length)
    fdatasyncSync(fd)
    micros.push((performance.now() - t0) * 1000)
  }
  closeSync(fd)
  micros.sort((a, b) => a - b)
  const at = (q: number) => micros[Math.floor(q * (micros.length - 1))]!.toFixed(0).padStart(7)
  console.log(`${label.padEnd(34)} p50 ${at(0.5)}  p90 ${at(0.9)}  p99 ${at(0.99)}  max ${at(1)}  µs`)
}

console.log(`16 KiB write + fdatasync in ${dir}`)
measure('growing file, back to back', false, 3000, 0)
measure('overwritten in place, back to back', true, 3000, 0)
measure('growing file, one every 5 ms', false, 1000, 5)
measure('overwritten in place, one every 5 ms', true, 1000, 5)
rmSync(dir, { recursive: true, force: true })
