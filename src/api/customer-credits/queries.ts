import type { Selectable } from 'kysely'
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

export const { list: listCredits, get: getCredit } = customerRecordReads('customer_credits', (query) =>
  query
    .selectAll('customer_credits')
    .select([
      staffEmail('customer_credits.created_by_id').as('created_by_email'),
      customerTimeZone('customer_credits.customer_id').as('time_zone'),
    ]),
)

export const { insert: insertCredit, update: updateCredit } = customerRecordWrites('customer_credits')
