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
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { timeFsyncs } from './_fsync.ts'

const dir = mkdtempSync(join(tmpdir(), 'belay-bench-fsync-'))
const file = join(dir, 'fsync.bin')

function measure(label: string, growing: boolean, count: number, everyMs: number): void {
  const t = timeFsyncs(file, { bytes: 16 * 1024, count, growing, everyMs })
  const at = (us: number) => us.toFixed(0).padStart(7)
  console.log(
    `${label.padEnd(36)} p50 ${at(t.p50)}  p90 ${at(t.p90)}  p99 ${at(t.p99)}  max ${at(t.max)}  µs`,
  )
}

console.log(`16 KiB write + fdatasync in ${dir}`)
measure('growing file, back to back', true, 3000, 0)
measure('overwritten in place, back to back', false, 3000, 0)
measure('growing file, one every 5 ms', true, 1000, 5)
measure('overwritten in place, one every 5 ms', false, 1000, 5)
rmSync(dir, { recursive: true, force: true })
