import type { Db } from '../../db/connection.ts'
import type { Organization, OrganizationTable } from '../../db/schema.ts'
import type { Insertable, Updateable } from 'kysely'

export const getOrganization = (db: Db): Promise<Organization | undefined> =>
  db.selectFrom('organization').selectAll().where('id', '=', 1).executeTakeFirst()

export async function insertOrganization(db: Db, org: Insertable<OrganizationTable>): Promise<void> {
  await db
    .insertInto('organization')
    .values({ ...org, id: 1 })
    .execute()
}

export async function updateOrganization(db: Db, changes: Updateable<OrganizationTable>): Promise<void> {
  await db.updateTable('organization').set(changes).where('id', '=', 1).execute()
}
