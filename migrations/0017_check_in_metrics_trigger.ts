import type { Kysely } from 'kysely'
import { runStatements } from './migration.ts'

// Every check-in the door writes keeps four metric facts: the per-day counts, each customer's first
// use of each product, their first two days of visits and the check-ins they made on a day they
// came more than once. Each was kept by a trigger of its own, so an insert into check_ins ran four
// trigger programs and looked the check-in's product up three times (twice for its first use, once
// for its day's count). check_in_metrics_insert keeps all four in one trigger program whose
// statements write exactly what the four did, and looks the product up once for each table that
// stores it: the first use reads it as a row joined by primary key, which yields nothing when there
// is no product, instead of a value tested for NULL and then read again.
//
// Deleting or changing a check-in keeps its triggers: the door only inserts check-ins, and its
// check-out writes check_out_at, which no trigger's column list names.

const REPLACED = [
  'check_in_day_counts_insert',
  'product_first_uses_check_in',
  'customer_first_visit_days_insert',
  'same_day_check_ins_insert',
]

/** The product a new check-in was let in on, for the per-day counts (0 for FRE and MIG). */
const dayCountProduct = `coalesce(CASE
    WHEN new.entry_method IN ('MEM', 'GUE') THEN
      (SELECT membership_type_id FROM customer_memberships WHERE id = new.customer_membership_id)
    WHEN new.entry_method = 'ENT' THEN
      (SELECT entry_pass_type_id FROM customer_entry_passes WHERE id = new.customer_entry_pass_id)
    WHEN new.entry_method = 'EVE' THEN
      (SELECT events.event_type_id FROM reservations JOIN events ON events.id = reservations.event_id
        WHERE reservations.id = new.reservation_id)
  END, 0)`

/**
 * The product type, product and (for a membership) membership of a new check-in made with a
 * membership, an entry pass or an event's reservation: one row, or none when the check-in was made
 * otherwise or its product is not there. Only the arm of the check-in's method reads a table.
 */
const firstUse = `SELECT 'membership' AS product_type, membership_type_id AS product_id,
        new.customer_membership_id AS customer_membership_id
      FROM customer_memberships WHERE new.entry_method = 'MEM' AND id = new.customer_membership_id
    UNION ALL
    SELECT 'entry_pass', entry_pass_type_id, NULL
      FROM customer_entry_passes WHERE new.entry_method = 'ENT' AND id = new.customer_entry_pass_id
    UNION ALL
    SELECT 'event', events.event_type_id, NULL
      FROM reservations JOIN events ON events.id = reservations.event_id
      WHERE new.entry_method = 'EVE' AND reservations.id = new.reservation_id`

/**
 * The check-ins of the new check-in's customer on its local_date, the new one among them, looked
 * for at each of `gyms` (a query of gym ids; every gym, unless a later migration narrows it).
 */
const ofTheDayAt = (gyms: string) => `customer_id = new.customer_id AND gym_id IN (${gyms})
        AND created_at >= date(new.local_date, '-1 day') AND created_at < date(new.local_date, '+2 days')
        AND local_date = new.local_date`

/**
 * Whether the new check-in's customer has check-ins of its day listed in same_day_check_ins. A
 * day is listed whole or not at all: its second check-in lists both, and each later one itself
 * alone, so a customer who comes back again and again does not have the whole day read at each.
 */
export const dayListed = `EXISTS (SELECT 1 FROM same_day_check_ins
          WHERE local_date = new.local_date AND customer_id = new.customer_id)`

/**
 * The one insert trigger. A later migration narrows the gyms where a day's check-ins are looked
 * for (`gyms`) and adds statements to run after the others (`then`).
 */
export const checkInMetricsInsertTrigger = ({ gyms = 'SELECT id FROM gyms', then = '' } = {}) =>
  `CREATE TRIGGER check_in_metrics_insert AFTER INSERT ON check_ins BEGIN
      INSERT INTO check_in_day_counts (local_date, gym_id, entry_method, product_id, check_ins, first_check_ins)
        VALUES (new.local_date, new.gym_id, new.entry_method, ${dayCountProduct}, 1, new.check_in_count IS 1)
        ON CONFLICT DO UPDATE SET check_ins = check_ins + 1,
          first_check_ins = first_check_ins + excluded.first_check_ins;
      INSERT INTO product_first_uses (customer_id, product_type, product_id, used_at, customer_membership_id)
        SELECT new.customer_id, product_type, product_id, new.created_at, customer_membership_id
        FROM (${firstUse})
        WHERE product_id IS NOT NULL
        ON CONFLICT DO UPDATE SET used_at = excluded.used_at,
          customer_membership_id = excluded.customer_membership_id
        WHERE excluded.used_at < used_at;
      INSERT INTO customer_first_visit_days (customer_id, first_date, return_date)
        VALUES (new.customer_id, new.local_date, NULL)
        ON CONFLICT DO UPDATE SET
          first_date = min(first_date, excluded.first_date),
          return_date = CASE WHEN excluded.first_date < first_date THEN first_date ELSE excluded.first_date END
        WHERE excluded.first_date <> first_date AND (return_date IS NULL OR excluded.first_date < return_date);
      INSERT OR IGNORE INTO same_day_check_ins (local_date, customer_id, check_in_id)
        SELECT new.local_date, new.customer_id, new.id WHERE ${dayListed};
      INSERT OR IGNORE INTO same_day_check_ins (local_date, customer_id, check_in_id)
        SELECT local_date, customer_id, id FROM check_ins WHERE NOT ${dayListed} AND ${ofTheDayAt(gyms)}
          AND EXISTS (SELECT 1 FROM check_ins WHERE ${ofTheDayAt(gyms)} AND id <> new.id);
${then}    END`

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [...REPLACED.map((name) => `DROP TRIGGER ${name}`), checkInMetricsInsertTrigger()])
}
