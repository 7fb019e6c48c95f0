import type { Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { CustomerCreditTable } from '../../db/schema.ts'
import {
  customerRecordReads,
  customerRecordWrites,
  customerTimeZone,
  staffEmail,
} from '../customer-records/queries.ts'

export type CreditRow = Selectable<CustomerCreditTable> & {
  created_by_email: string | null
  time_zone: string
}

export const {
  count: countCredits,
  list: listCredits,
  get: getCredit,
} = customerRecordReads<CreditRow>('customer_credits', (db: Db) =>
  db
    .selectFrom('customer_credits')
    .selectAll('customer_credits')
    .select([
      staffEmail('customer_credits.created_by_id').as('created_by_email'),
      customerTimeZone('customer_credits.customer_id').as('time_zone'),
    ]),
)

export const { insert: insertCredit, update: updateCredit } = customerRecordWrites('customer_credits')
