import { Database } from 'bun:sqlite'
import { closeSync, fsyncSync, openSync } from 'node:fs'

/**
 * What makes a copy of the database usable, checked on the copy's own read-only connection. Imported
 * by the snapshot's thread (snapshot-worker.ts): keep its imports to bun:sqlite and node's built-ins.
 */

export interface CopyCheck {
  /** What `PRAGMA integrity_check` found wrong; empty when it says ok. */
  damage: string[]
  /** Applied in the copy, unknown to this executable: a newer belay wrote it. */
  unknownMigrations: string[]
  /** Known to this executable, not applied in the copy: an older belay wrote it. */
  pendingMigrations: string[]
}

/**
 * Opens a copy read-only and checks it: SQLite's integrity check, and its migration level against
 * `knownMigrations`, the ones this executable carries. A file that is not a SQLite database throws
 * (SQLITE_NOTADB), as opening it anywhere else would.
 */
export function checkCopyFile(path: string, knownMigrations: readonly string[]): CopyCheck {
  const copy = new Database(path, { readonly: true, strict: true })
  try {
    const damage = (copy.query('PRAGMA integrity_check').all() as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .filter((line) => line !== 'ok')
    const hasLedger = copy
      .query("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'")
      .get()
    const applied = new Set(
      hasLedger
        ? (copy.query('SELECT name FROM schema_migrations').all() as { name: string }[]).map((r) => r.name)
        : [],
    )
    const known = new Set(knownMigrations)
    return {
      damage,
      unknownMigrations: [...applied].filter((name) => !known.has(name)).sort(),
      pendingMigrations: knownMigrations.filter((name) => !applied.has(name)),
    }
  } finally {
    copy.close()
  }
}

/** Makes a file's bytes, or a folder's list of names, durable: a copy survives a power cut. */
export function syncPath(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
