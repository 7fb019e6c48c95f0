import type { Db } from '../../db/connection.ts'
import type { Organization, OrganizationTable } from '../../db/schema.ts'
import type { Insertable, Updateable } from 'kysely'
import type { Clock } from '../../lib/clock.ts'
import { localDate } from '../../lib/local-time.ts'

export const getOrganization = (db: Db): Promise<Organization | undefined> =>
  db.selectFrom('organization').selectAll().where('id', '=', 1).executeTakeFirst()

/** The organization's one row; it exists from the first start on. */
export async function loadOrganization(db: Db): Promise<Organization> {
  const org = await getOrganization(db)
  if (!org)
    throw new Error('the database has no organization: run `belay migrate` and start `belay serve` once')
  return org
}

/**
 * Today on the organization's wall clock: records good "through" a date (waivers, documents, credits,
 * alerts) are usable for the whole of that day in the organization's zone.
 */
export async function organizationToday(deps: { db: Db; clock: Clock }): Promise<string> {
  return localDate(deps.clock.now(), (await loadOrganization(deps.db)).time_zone)
}

export async function insertOrganization(db: Db, org: Insertable<OrganizationTable>): Promise<void> {
  await db
    .insertInto('organization')
    .values({ ...org, id: 1 })
    .execute()
}

export async function updateOrganization(db: Db, changes: Updateable<OrganizationTable>): Promise<void> {
  await db.updateTable('organization').set(changes).where('id', '=', 1).execute()
}
