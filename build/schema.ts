/**
 * Writes migrations/schema.sql: the database's schema after every migration, read from a fresh
 * in-memory database they have been applied to, so every table, index, view and trigger (about
 * thirty triggers keep the derived tables, across many migrations) can be read in one place.
 * test/db/schema-file.test.ts fails when the committed file is not what this writes.
 * Usage: npx bun run build/schema.ts
 */
import { join } from 'node:path'
import { openDatabase } from '../src/db/connection.ts'
import { migrateToLatest } from '../src/db/migrator.ts'

export const SCHEMA_FILE = join(import.meta.dir, '../migrations/schema.sql')
export const REGENERATE = 'npx bun run build/schema.ts'

const HEADER = `-- The database's schema after every migration, as SQLite holds it, by table in name order: each
-- table (or view), then its indexes, then the triggers that fire on it, so a trigger that keeps a
-- derived table is listed under the table it watches.
-- Written from migrations/ by \`${REGENERATE}\`; do not edit by hand.
`

interface SchemaObject {
  type: 'table' | 'index' | 'trigger' | 'view'
  name: string
  tbl_name: string
  sql: string
}

/**
 * A statement's lines after the first moved left together, as far as the least indented goes:
 * the migrations write their SQL indented inside template strings, and SQLite keeps it so.
 */
function dedent(sql: string): string {
  const [first, ...rest] = sql.split('\n')
  const indents = rest.filter((line) => line.trim() !== '').map((line) => line.search(/\S/))
  const cut = indents.length === 0 ? 0 : Math.min(...indents)
  return [first, ...rest.map((line) => line.slice(cut).trimEnd())].join('\n')
}

/** The schema file's text for the latest migration. */
export async function currentSchema(): Promise<string> {
  const { db, sqlite, close } = openDatabase(':memory:')
  try {
    await migrateToLatest(db)
    const objects = sqlite
      .query(
        `SELECT type, name, tbl_name, sql FROM sqlite_master
        WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
        ORDER BY tbl_name, CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'trigger' THEN 2 ELSE 3 END,
          name`,
      )
      .all() as SchemaObject[]
    const groups = Map.groupBy(objects, (object) => object.tbl_name)
    const sections = [...groups].map(
      ([table, members]) =>
        `-- ${table}\n\n` + members.map((object) => `${dedent(object.sql)};\n`).join('\n'),
    )
    return [HEADER, ...sections].join('\n')
  } finally {
    await close()
  }
}

if (import.meta.main) {
  await Bun.write(SCHEMA_FILE, await currentSchema())
  console.log(`wrote ${SCHEMA_FILE}`)
}
