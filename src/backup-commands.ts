import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Config } from './config.ts'
import { restoreSnapshot } from './core/backup/restore.ts'
import { describeLevel, SnapshotRefused, takeSnapshot } from './core/backup/snapshots.ts'
import type { Connection } from './db/connection.ts'
import { migrationStatus } from './db/migrator.ts'
import { lockForServing } from './db/serve-lock.ts'
import { systemClock } from './lib/clock.ts'
import { consoleLogger as log } from './lib/log.ts'
import { databaseError, StartupError } from './lib/startup-errors.ts'

/**
 * The command line's backup work (main.ts parses the arguments): `belay backup`, `belay restore`,
 * and the snapshot every migrating command takes first. Their output is for the person at the box:
 * progress on stderr, the outcome on stdout, a refusal as one StartupError line.
 */

/**
 * A snapshot before pending migrations change a database that already has some applied: the way
 * back should an upgrade go wrong. A snapshot that cannot be taken stops the migration.
 */
export async function snapshotBeforeMigrating(connection: Connection, config: Config): Promise<void> {
  if (config.dbPath === ':memory:') return
  const status = await migrationStatus(connection.db)
  const pending = status.filter((m) => m.appliedAt === null)
  // A newer belay's database is refused by the migrator; an empty one has nothing to keep.
  if (status.some((m) => m.unknown) || pending.length === 0 || pending.length === status.length) return
  let taken
  try {
    taken = await takeSnapshot({
      dbPath: config.dbPath,
      target: { folder: config.backupDir },
      kind: 'pre-migration',
      at: systemClock.now(),
      migration: pending[0]!.name,
    })
  } catch (error) {
    throw new StartupError(
      `could not take a snapshot of ${resolve(config.dbPath)} before migrating it (${error instanceof Error ? error.message : String(error)}): nothing was changed; fix that or choose another --backup-dir`,
    )
  }
  log.info('snapshot taken before migrating', {
    path: taken.path,
    migrations: pending.map((m) => m.name),
  })
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

/** `belay backup`: a snapshot into `to` (a folder or a new file's name), or the backup folder. */
export async function backupDatabase(config: Config, to: string | undefined): Promise<void> {
  if (!existsSync(config.dbPath))
    throw new StartupError(
      `there is no database at ${resolve(config.dbPath)}: pass the gym's database with --db`,
    )
  const intoFolder = to === undefined || to.endsWith('/') || (existsSync(to) && statSync(to).isDirectory())
  const started = performance.now()
  let shown = 0
  try {
    const taken = await takeSnapshot({
      dbPath: config.dbPath,
      target: intoFolder ? { folder: to ?? config.backupDir } : { file: to },
      kind: 'manual',
      at: systemClock.now(),
      onProgress: ({ copiedBytes, databaseBytes }) => {
        // Said once it grew: the copy then stands still while it is synced and checked.
        if (copiedBytes === shown) return
        // The copy is written only inside its read transaction: from here on, nothing new gets in.
        if (shown === 0) console.error('snapshot begun: later commits are not in this copy')
        shown = copiedBytes
        const share =
          databaseBytes > 0 ? ` (${Math.min(100, Math.round((copiedBytes / databaseBytes) * 100))}%)` : ''
        console.error(`copied ${megabytes(copiedBytes)} of ${megabytes(databaseBytes)}${share}`)
      },
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(2)
    console.log(`snapshot ${taken.path} (${megabytes(taken.sizeBytes)}) in ${seconds} s`)
    console.log(`  verified: integrity check ok, ${describeLevel(taken.check)}`)
  } catch (error) {
    if (error instanceof SnapshotRefused) throw new StartupError(error.message)
    throw databaseError(config.dbPath, error)
  }
}

/** `belay restore`: the snapshot at `source` in place of the database, under the serve lock. */
export async function restoreDatabase(config: Config, source: string): Promise<void> {
  // Held to the end: no serve may open the database while it is being swapped.
  const lock = lockForServing(config.dbPath)
  try {
    const restored = restoreSnapshot(source, config.dbPath, systemClock.now())
    console.log(`restored ${resolve(source)} into ${resolve(config.dbPath)}`)
    console.log(`  verified: integrity check ok, ${describeLevel(restored.check)}`)
    console.log(
      restored.replacedPath
        ? `  the database it replaced is kept as ${restored.replacedPath}`
        : '  there was no database to replace',
    )
  } catch (error) {
    if (error instanceof SnapshotRefused) throw new StartupError(error.message)
    throw databaseError(source, error)
  } finally {
    lock.release()
  }
}
