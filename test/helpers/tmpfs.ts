import { mkdtempSync, rmdirSync, rmSync, statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A tmpfs of its own, for a test that fills a disk for real. Mounting needs root (CI runs as root);
 * elsewhere `mounted` is false and the test skips, having printed why.
 */
export interface Tmpfs {
  dir: string
  mounted: boolean
  /** Takes every free byte, with one file allocated to the size left. */
  fill(): void
  /** Gives the space back. */
  free(): void
  unmount(): void
}

export function mountTmpfs(size: string, label: string): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`))
  const filler = join(dir, 'filler')
  const mount = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], {
    stderr: 'pipe',
  })
  const mounted = mount.exitCode === 0
  if (!mounted)
    console.log(
      `${label}: skipped, cannot mount a tmpfs at ${dir} (needs root): ${mount.stderr.toString().trim()}`,
    )
  return {
    dir,
    mounted,
    fill() {
      const { bavail, bsize } = statfsSync(dir)
      const fill = Bun.spawnSync(['fallocate', '-l', String(Number(bavail) * Number(bsize)), filler], {
        stderr: 'pipe',
      })
      if (fill.exitCode !== 0 || Number(statfsSync(dir).bavail) !== 0)
        throw new Error(`could not fill ${dir}: ${fill.stderr.toString()}`)
    },
    free: () => rmSync(filler),
    unmount() {
      // Lazily: a failed test may leave a file open on it; the mount goes once that is closed.
      if (mounted) Bun.spawnSync(['umount', '--lazy', dir])
      rmdirSync(dir)
    },
  }
}
