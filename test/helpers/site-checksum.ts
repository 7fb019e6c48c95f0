import { Database } from 'bun:sqlite'
import { replicatedTables } from '../../src/core/sites/tables.ts'

/**
 * What a site holds of the organization's replicated rows, as hashes: one per replicated table
 * (src/core/sites/tables.ts), over its rows in key order and every column but the derived ones.
 * Two sites that have applied the same stream have equal checksums.
 */
export interface SiteChecksum {
  /** Every table's hash together. */
  all: string
  tables: Record<string, { rows: number; hash: string }>
}

/**
 * Reads a box's database file read-only, while the box may be writing it: in WAL mode the read sees
 * one committed state of the whole file.
 */
export function siteChecksum(dbPath: string): SiteChecksum {
  const db = new Database(dbPath, { readonly: true })
  try {
    const tables: SiteChecksum['tables'] = {}
    const all = new Bun.CryptoHasher('sha256')
    db.transaction(() => {
      for (const table of replicatedTables()) {
        const derived = new Set<string>(table.derivedColumns ?? [])
        const columns = (db.query(`PRAGMA table_info("${table.name}")`).all() as { name: string }[])
          .map((column) => column.name)
          .filter((column) => !derived.has(column))
        const hash = new Bun.CryptoHasher('sha256')
        let rows = 0
        const select = db.query(
          `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table.name}"
           ORDER BY ${table.key.map((k) => `"${k}"`).join(', ')}`,
        )
        for (const row of select.values()) {
          hash.update(JSON.stringify(row.map(encode)))
          hash.update('\n')
          rows += 1
        }
        const digest = hash.digest('hex')
        tables[table.name] = { rows, hash: digest }
        all.update(`${table.name} ${digest}\n`)
      }
    })()
    return { all: all.digest('hex'), tables }
  } finally {
    db.close()
  }
}

const encode = (value: unknown): unknown =>
  value instanceof Uint8Array ? { hex: Buffer.from(value).toString('hex') } : value

/** The tables whose rows differ between two checksums, with each side's row count. */
export function differingTables(
  a: SiteChecksum,
  b: SiteChecksum,
): Record<string, [number | undefined, number | undefined]> {
  const names = new Set([...Object.keys(a.tables), ...Object.keys(b.tables)])
  const differing: Record<string, [number | undefined, number | undefined]> = {}
  for (const name of names)
    if (a.tables[name]?.hash !== b.tables[name]?.hash)
      differing[name] = [a.tables[name]?.rows, b.tables[name]?.rows]
  return differing
}
