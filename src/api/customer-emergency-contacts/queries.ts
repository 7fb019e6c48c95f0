import type { Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { CustomerEmergencyContactTable } from '../../db/schema.ts'
import { customerRecordReads, customerRecordWrites } from '../customer-records/queries.ts'

export type EmergencyContactRow = Selectable<CustomerEmergencyContactTable>

export const {
  count: countEmergencyContacts,
  list: listEmergencyContacts,
  get: getEmergencyContact,
} = customerRecordReads<EmergencyContactRow>('customer_emergency_contacts', (db: Db) =>
  db.selectFrom('customer_emergency_contacts').selectAll(),
)

export const { insert: insertEmergencyContact, update: updateEmergencyContact } = customerRecordWrites(
  'customer_emergency_contacts',
)
