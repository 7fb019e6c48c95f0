import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'

/**
 * Writes product_first_uses again from every check-in there is, as its trigger on check_ins keeps
 * it one check-in at a time (migration 0014): for a bulk load of check-ins (the demo), where one
 * pass over the finished table costs far less than the trigger for each row. SQLite takes the
 * bare customer_membership_id of a min() aggregate from the row holding the minimum.
 */
export async function rebuildProductFirstUses(db: Db): Promise<void> {
  await db.deleteFrom('product_first_uses').execute()
  await sql`
    INSERT INTO product_first_uses (customer_id, product_type, product_id, used_at, customer_membership_id)
    SELECT customer_id, product_type, product_id, min(created_at), customer_membership_id
    FROM (
      SELECT ci.customer_id,
        CASE ci.entry_method WHEN 'MEM' THEN 'membership' WHEN 'ENT' THEN 'entry_pass' ELSE 'event' END
          AS product_type,
        CASE ci.entry_method
          WHEN 'MEM' THEN
            (SELECT membership_type_id FROM customer_memberships WHERE id = ci.customer_membership_id)
          WHEN 'ENT' THEN
            (SELECT entry_pass_type_id FROM customer_entry_passes WHERE id = ci.customer_entry_pass_id)
          ELSE
            (SELECT events.event_type_id FROM reservations JOIN events ON events.id = reservations.event_id
              WHERE reservations.id = ci.reservation_id)
        END AS product_id,
        ci.created_at,
        CASE ci.entry_method WHEN 'MEM' THEN ci.customer_membership_id END AS customer_membership_id
      FROM check_ins AS ci
      WHERE ci.entry_method IN ('MEM', 'ENT', 'EVE')
    )
    WHERE product_id IS NOT NULL
    GROUP BY customer_id, product_type, product_id`.execute(db)
}
