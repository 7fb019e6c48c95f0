import { sql, type Kysely } from 'kysely'

/** A schema change. Migrations never import src/: they must keep meaning what they meant when written. */
export interface Migration {
  up(db: Kysely<any>): Promise<void>
}

/** Runs DDL statements one by one (SQLite prepares a single statement at a time). */
export async function runStatements(db: Kysely<any>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
