import { accessSync, constants } from 'node:fs'
import { dirname, resolve } from 'node:path'

/**
 * A start-up failure the person at the box can act on: its message is one line naming the file or
 * port and what to do, printed instead of a stack trace.
 */
export class StartupError extends Error {}

/**
 * The database holds migrations this executable does not know: a newer Belay has upgraded it. Its
 * tables may have changed in ways this version would misread or damage, so nothing is done to it.
 */
export class NewerDatabaseError extends Error {
  constructor(readonly unknownMigrations: string[]) {
    super(`the database has migrations this version does not know: ${unknownMigrations.join(', ')}`)
  }
}

const code = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined

/** What went wrong opening, creating or migrating the database at `path`, as a StartupError. */
export function databaseError(path: string, error: unknown): unknown {
  if (error instanceof StartupError) return error
  const file = resolve(path)
  if (error instanceof NewerDatabaseError)
    return new StartupError(
      `the database ${file} was upgraded by a newer belay (it has ${error.unknownMigrations.join(', ')}): run that version or a later one, or restore a backup taken before the upgrade; nothing was changed`,
    )
  switch (code(error)) {
    case 'SQLITE_NOTADB':
      return new StartupError(
        `${file} is not a SQLite database: pass the gym's database with --db, or move this file away`,
      )
    case 'SQLITE_READONLY':
    case 'SQLITE_READONLY_DIRECTORY':
    case 'SQLITE_READONLY_CANTINIT':
    case 'SQLITE_READONLY_RECOVERY':
      return new StartupError(
        `cannot write the database ${file}: let the user running belay write it and its folder ${dirname(file)}`,
      )
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_PERM':
    case 'SQLITE_AUTH':
      return new StartupError(
        `cannot open the database ${file}: check that its folder ${dirname(file)} exists and the user running belay may read and write both`,
      )
    case 'SQLITE_BUSY':
      return new StartupError(
        `the database ${file} stayed locked by another process: stop whatever else is writing it and try again`,
      )
    case 'SQLITE_CORRUPT':
      return new StartupError(`the database ${file} is damaged: restore it from a backup`)
  }
  return error
}

const folderProblems: Record<string, string> = {
  ENOTDIR: 'a file is in the way',
  EEXIST: 'a file is in the way',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the disk is read-only',
  ENOSPC: 'the disk is full',
}

/** The database's folder could not be made (a file in the way, no permission, a read-only disk). */
export function folderError(path: string, error: unknown): unknown {
  const why = code(error)
  if (!why?.startsWith('E')) return error
  return new StartupError(
    `cannot create the database folder ${dirname(resolve(path))} (${folderProblems[why] ?? why}): create it yourself, or choose another --db`,
  )
}

/** The listening socket could not be opened. */
export function listenError(host: string, port: number, error: unknown): unknown {
  const why = code(error)
  if (why === 'EADDRINUSE')
    return new StartupError(
      `port ${port} on ${host} is already in use: stop the program listening there, or choose another --port`,
    )
  if (why === 'EACCES')
    return new StartupError(
      `not allowed to listen on port ${port} on ${host}: choose a port above 1023 with --port, or run belay with the right to bind it`,
    )
  if (why === 'EADDRNOTAVAIL')
    return new StartupError(
      `cannot listen on ${host}: it is not an address of this machine; choose another --host (0.0.0.0 for all)`,
    )
  return error
}

/**
 * Refuses a database file this process may not write. SQLite opens such a file without complaint
 * and fails only at its first write, which for a server is a customer's check-in, not its start.
 */
export function checkWritable(path: string): void {
  if (path === ':memory:') return
  try {
    accessSync(path, constants.W_OK)
  } catch (error) {
    // A missing file is made on open; a missing folder is reported there.
    if (!['EACCES', 'EPERM', 'EROFS'].includes(code(error) ?? '')) return
    throw databaseError(path, Object.assign(new Error('read-only'), { code: 'SQLITE_READONLY' }))
  }
}
