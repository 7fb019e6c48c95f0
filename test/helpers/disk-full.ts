import type { Database as BunDatabase } from 'bun:sqlite'

/** The 503 body of a write the disk would not take (SQLITE_FULL). */
export const diskFull = {
  detail:
    'The database cannot be written: the disk is full. Nothing was saved; try again once space has been freed.',
}

/** SQLite's own ceiling on a database's pages (its default max_page_count). */
const NO_LIMIT = 4294967294

/**
 * A full disk, as SQLite reports it: from now on an INSERT into `table` also writes a blob bigger
 * than the database may still grow (max_page_count), so its statement fails with SQLITE_FULL inside
 * whatever transaction runs it, exactly where a real full disk would stop it. Returns what frees the
 * space again, on the same connection.
 */
export function fillDiskOnInsertInto(sqlite: BunDatabase, table: string): () => void {
  sqlite.run('CREATE TABLE disk_filler (bytes BLOB)')
  sqlite.run(
    `CREATE TRIGGER disk_full AFTER INSERT ON ${table} BEGIN INSERT INTO disk_filler VALUES (zeroblob(1000000)); END`,
  )
  const { page_count } = sqlite.query('PRAGMA page_count').get() as { page_count: number }
  sqlite.run(`PRAGMA max_page_count = ${page_count + 4}`)
  return () => {
    sqlite.run('DROP TRIGGER disk_full')
    sqlite.run('DROP TABLE disk_filler')
    sqlite.run(`PRAGMA max_page_count = ${NO_LIMIT}`)
  }
}
