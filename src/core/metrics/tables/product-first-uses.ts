import { sql } from 'kysely'
import type { Db } from '../../../db/connection.ts'
import type { EntryMethod } from '../../../db/schema.ts'
import { isAmong, type CheckInIds } from './check-in-ids.ts'
import { CHECK_IN_PRODUCT_KINDS, checkInProductId, type CheckInProductKind } from './check-in-products.ts'

/**
 * The entry methods whose check-ins are a use of the customer's own product, with its kind. A
 * guest's check-in uses the host's membership, so it is no first use of the guest's.
 */
const FIRST_USE_KINDS = Object.entries(CHECK_IN_PRODUCT_KINDS).filter(
  (entry): entry is [EntryMethod, CheckInProductKind] => entry[1] !== null && entry[0] !== 'GUE',
)

/**
 * Records in product_first_uses the check-ins of `ids` that are a customer's first use of a
 * product (membership type, entry pass type, event type) on record: the earliest of the range for
 * each customer and product, where it is earlier than the one there is. SQLite takes the bare
 * customer_membership_id of a min() aggregate from the row holding the minimum. No index holds the
 * holdings a check-in was made with, so the check-ins are read from the table in id order (NOT
 * INDEXED): through an index, by method or customer, each row would be one more read.
 */
export async function countFirstUses(db: Db, ids: CheckInIds): Promise<void> {
  const kindOf = sql.join(
    FIRST_USE_KINDS.map(([method, kind]) => sql`WHEN ${sql.lit(method)} THEN ${sql.lit(kind)}`),
    sql` `,
  )
  const productOf = sql.join(
    FIRST_USE_KINDS.map(
      ([method, kind]) => sql`WHEN ${sql.lit(method)} THEN (${checkInProductId(kind, 'ci')})`,
    ),
    sql` `,
  )
  await sql`
    INSERT INTO product_first_uses (customer_id, product_type, product_id, used_at, customer_membership_id)
    SELECT customer_id, product_type, product_id, min(created_at), customer_membership_id
    FROM (
      SELECT ci.customer_id, CASE ci.entry_method ${kindOf} END AS product_type,
        CASE ci.entry_method ${productOf} END AS product_id,
        ci.created_at,
        CASE ci.entry_method WHEN 'MEM' THEN ci.customer_membership_id END AS customer_membership_id
      FROM check_ins AS ci NOT INDEXED
      WHERE ${isAmong(ids, 'ci.id')}
        AND ci.entry_method IN (${sql.join(FIRST_USE_KINDS.map(([method]) => sql.lit(method)))})
    )
    WHERE product_id IS NOT NULL
    GROUP BY customer_id, product_type, product_id
    ON CONFLICT DO UPDATE SET used_at = excluded.used_at,
      customer_membership_id = excluded.customer_membership_id
    WHERE excluded.used_at < used_at`.execute(db)
}
