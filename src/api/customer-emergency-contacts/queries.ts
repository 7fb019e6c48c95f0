import type { Selectable } from 'kysely'
import type { CustomerEmergencyContactTable } from '../../db/schema.ts'
import { customerRecordReads, customerRecordWrites } from '../customer-records/queries.ts'

export type EmergencyContactRow = Selectable<CustomerEmergencyContactTable>

export const { list: listEmergencyContacts, get: getEmergencyContact } = customerRecordReads(
  'customer_emergency_contacts',
  (query) => query.selectAll(),
)

export const { insert: insertEmergencyContact, update: updateEmergencyContact } = customerRecordWrites(
  'customer_emergency_contacts',
)
