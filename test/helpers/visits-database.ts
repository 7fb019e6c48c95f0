import { openDatabase, type Connection, type Db } from '../../src/db/connection.ts'
import { migrateToLatest } from '../../src/db/migrator.ts'
import { makeCustomer } from './customer-factories.ts'
import { makeGym } from './factories.ts'
import { migrateBefore } from './migrate.ts'

/*
 * What the tests of the tables kept from check-ins (first visit days, same-day check-ins, the
 * check-in metrics' catch-up) write their check-ins into: an in-memory database with a gym in
 * America/Denver (noon there is 18:00Z in summer) and two customers, Ada and Ben.
 */

export interface VisitsDatabase {
  connection: Connection
  db: Db
  gymId: number
  ada: number
  ben: number
}

/** The database, migrated to the latest or, with `upTo`, through the migration before that one. */
export async function openVisitsDatabase(upTo?: string): Promise<VisitsDatabase> {
  const connection = openDatabase(':memory:')
  const db = connection.db
  if (upTo === undefined) await migrateToLatest(db)
  else await migrateBefore(db, upTo)
  return {
    connection,
    db,
    gymId: (await makeGym(db)).id,
    ada: (await makeCustomer(db, { first_name: 'Ada' })).id,
    ben: (await makeCustomer(db, { first_name: 'Ben' })).id,
  }
}
