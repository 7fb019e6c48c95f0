import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// The door's duplicate and same-day checks now read one index, check_ins_customer_gym (customer,
// gym, created_at), back one local day at most (src/api/gym-endpoints/queries.ts). The second
// customer-keyed index went: each check-in wrote a page of it at a random place, and at the door's
// rush every such page is written to the WAL and synced with the check-in.
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, ['DROP INDEX check_ins_customer_day'])
}
