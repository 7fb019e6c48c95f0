import { expressionBuilder, type AliasableExpression, type Expression } from 'kysely'
import type { Database, Flag } from '../db/schema.ts'

/**
 * "Has a usable waiver" on `today`: the customer has a waiver document without an expiration date,
 * or one expiring today or later, so a waiver stays usable through the end of its expiration day.
 * `today` is a local date (YYYY-MM-DD): the gym's at the door, which refuses a customer without one
 * where the organization requires waivers (its built-in "No waiver" alert), and the organization's
 * on the customer record (active_waiver_exists).
 *
 * `customerId` is a column of the enclosing query (`eb.ref('customers.id')`) or a value
 * (`eb.val(id)`). SQLite answers EXISTS with 0 or 1; it reads the index customer_documents_customer
 * (customer_id, kind, expiration_date).
 */
export function usableWaiverExists(customerId: Expression<number>, today: string): AliasableExpression<Flag> {
  const eb = expressionBuilder<Pick<Database, 'customer_documents'>>()
  return eb
    .exists(
      eb
        .selectFrom('customer_documents')
        .select((d) => d.lit(1).as('one'))
        .where('customer_documents.customer_id', '=', customerId)
        .where('customer_documents.kind', '=', 'waiver')
        .where((d) =>
          d.or([
            d('customer_documents.expiration_date', 'is', null),
            d('customer_documents.expiration_date', '>=', today),
          ]),
        ),
    )
    .$castTo<Flag>()
}
