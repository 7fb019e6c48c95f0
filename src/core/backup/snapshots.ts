import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statfsSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { copyDatabase, syncPath, type CopyCheck, type CopyProgress } from '../../db/snapshot.ts'

/**
 * Snapshots of the gym's database: verified copies in a folder, named so that their names sort by
 * time and say what made them:
 *
 *   belay-20261124-065840Z.sqlite3                            on serve's schedule
 *   belay-20261124-065840Z-manual.sqlite3                     by `belay backup`
 *   belay-20261124-065840Z-before-0005_door_zones.sqlite3     before applying that migration
 *
 * A copy is written under a hidden temporary name in the same folder, synced, checked, and only then
 * renamed into place, so a name of this form is always a whole, verified copy.
 */

export type SnapshotKind = 'scheduled' | 'manual' | 'pre-migration'

export interface Snapshot {
  name: string
  path: string
  sizeBytes: number
  createdAt: Date
  kind: SnapshotKind
}

/** A copy that failed its checks, or a snapshot that cannot be taken: said in one line. */
export class SnapshotRefused extends Error {}

const NAME = /^belay-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})Z(?:-(manual)|-before-(.+))?\.sqlite3$/

/** 2026-11-24T06:58:40Z -> 20261124-065840Z: UTC, to the second, sortable as text. */
export const stamp = (at: Date): string =>
  at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')
    .replace('T', '-')

export function snapshotName(kind: SnapshotKind, at: Date, migration?: string): string {
  const suffix = kind === 'manual' ? '-manual' : kind === 'pre-migration' ? `-before-${migration}` : ''
  return `belay-${stamp(at)}${suffix}.sqlite3`
}

/** What a snapshot's name says, or null for any other file. */
export function parseSnapshotName(name: string): Pick<Snapshot, 'createdAt' | 'kind'> | null {
  const m = NAME.exec(name)
  if (!m) return null
  const [, y, mo, d, h, mi, s, manual, migration] = m
  return {
    createdAt: new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`),
    kind: manual ? 'manual' : migration ? 'pre-migration' : 'scheduled',
  }
}

/** Every snapshot in `folder`, newest first; none when the folder does not exist yet. */
export function listSnapshots(folder: string): Snapshot[] {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return []
    throw error
  }
  return names
    .flatMap((name) => {
      const parsed = parseSnapshotName(name)
      if (!parsed) return []
      const path = join(folder, name)
      return [{ name, path, sizeBytes: statSync(path).size, ...parsed }]
    })
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.name < b.name ? 1 : -1))
}

/** When the newest snapshot in `folder` was taken, whatever made it; null when there is none. */
export function newestSnapshotAt(folder: string): Date | null {
  return listSnapshots(folder)[0]?.createdAt ?? null
}

/** Seconds since the newest snapshot in `folder` (the metric and /healthz read this); null for none. */
export function lastSnapshotAge(folder: string, now: Date): number | null {
  const newest = newestSnapshotAt(folder)
  return newest === null ? null : Math.max(0, Math.floor((now.getTime() - newest.getTime()) / 1000))
}

/**
 * Removes the oldest scheduled snapshots beyond the newest `keep`. Snapshots taken by hand or before
 * a migration are the operator's to remove: the schedule never touches them.
 */
export function pruneSnapshots(folder: string, keep: number): string[] {
  const old = listSnapshots(folder)
    .filter((s) => s.kind === 'scheduled')
    .slice(keep)
  for (const snapshot of old) rmSync(snapshot.path, { force: true })
  return old.map((s) => s.name)
}

/**
 * The one-line reason a copy cannot stand in for the gym's database, or null when it can: it must
 * pass SQLite's integrity check and carry no migration this executable does not know. Missing
 * migrations are fine: a copy taken before an upgrade is migrated when it is served again.
 */
export function copyProblem(path: string, check: CopyCheck): string | null {
  if (check.damage.length > 0) {
    // SQLite's report has a line per problem, headed by the schema it is in: the first few, on one line.
    const problems = check.damage.flatMap((d) => d.split('\n')).filter((line) => !line.startsWith('***'))
    return `${resolve(path)} fails SQLite's integrity check (${problems.slice(0, 3).join('; ')})`
  }
  if (check.unknownMigrations.length > 0)
    return `${resolve(path)} was migrated by a newer belay (it has ${check.unknownMigrations.join(', ')}): use that version or a later one`
  return null
}

/** The copy's migration level in words, for what the commands print. */
export function describeLevel(check: CopyCheck): string {
  return check.pendingMigrations.length === 0
    ? 'every migration of this belay applied'
    : `before migrations ${check.pendingMigrations.join(', ')}`
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

/**
 * A snapshot must not fill the disk: the backup folder is beside the database by default, and a
 * full disk refuses the door's check-ins. So a copy is taken only where, once it is written, as much
 * room again is left (the copy's own size, for the database to grow into meanwhile).
 */
function refuseWithoutRoom(dbPath: string, folder: string): void {
  // What is still in the WAL is in the copy too.
  const wal = `${dbPath}-wal`
  const databaseBytes = statSync(dbPath).size + (existsSync(wal) ? statSync(wal).size : 0)
  const { bavail, bsize } = statfsSync(folder)
  const free = Number(bavail) * Number(bsize)
  if (free < 2 * databaseBytes)
    throw new SnapshotRefused(
      `not enough room in ${resolve(folder)} for a snapshot of ${resolve(dbPath)} (${megabytes(databaseBytes)}): ${megabytes(free)} free, ${megabytes(2 * databaseBytes)} needed to leave as much again; free some space or choose another folder`,
    )
}

export interface TakeSnapshot {
  dbPath: string
  /** Where the copy goes: a file of that name, or a folder to name it in. */
  target: { folder: string } | { file: string }
  kind: SnapshotKind
  at: Date
  /** The first migration about to be applied, for a pre-migration snapshot's name. */
  migration?: string
  onProgress?: (progress: CopyProgress) => void
}

export interface TakenSnapshot {
  path: string
  sizeBytes: number
  check: CopyCheck
}

/**
 * Takes a snapshot: copies the live database (never blocking its writer) into a temporary name
 * beside the target, syncs it, checks it, and renames it into place, syncing the folder. On any
 * failure the temporary copy is removed and nothing appears under the target's name.
 */
export async function takeSnapshot(o: TakeSnapshot): Promise<TakenSnapshot> {
  const path = resolve(
    'file' in o.target ? o.target.file : join(o.target.folder, snapshotName(o.kind, o.at, o.migration)),
  )
  const folder = dirname(path)
  if (existsSync(path)) throw new SnapshotRefused(`${path} already exists: choose another name`)
  mkdirSync(folder, { recursive: true })
  refuseWithoutRoom(o.dbPath, folder)
  // Hidden and unlike any snapshot's name: a half copy is never listed, restored or pruned.
  const partial = join(folder, `.${basename(path)}.${process.pid}.partial`)
  rmSync(partial, { force: true })
  try {
    const check = await copyDatabase(o.dbPath, partial, o.onProgress)
    const problem = copyProblem(partial, check)
    if (problem) throw new SnapshotRefused(`the copy of ${resolve(o.dbPath)} is not usable: ${problem}`)
    if (existsSync(path)) throw new SnapshotRefused(`${path} already exists: choose another name`)
    renameSync(partial, path)
    syncPath(folder)
    return { path, sizeBytes: statSync(path).size, check }
  } finally {
    rmSync(partial, { force: true })
  }
}
