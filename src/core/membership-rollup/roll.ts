import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { ACTIVE_STATUSES, STATUS_CLASSES } from '../../domain/membership-status.ts'
import { addDays } from '../../lib/local-time.ts'

/*
 * Rolling days: the statements that replace the rollup's rows for a range of days with counts read
 * from the status history and the memberships, members and add-ons as they are now. A catch-up
 * first turns the history of the days it rolls into spans of days in one status class
 * (prepareSpans), then rolls them a chunk of days at a time (rollDays): the counts per day come from
 * where spans start and end, so the work grows with the number of status changes, not with days
 * times memberships.
 */

interface Range {
  from: string
  through: string
  /** the day after `through`: where a span still open at the end of the range stops */
  after: string
}

/** The status class of a status code (NULL for none), as domain/membership-status.ts defines it. */
function statusClassOf(status: RawBuilder<unknown>): RawBuilder<string | null> {
  const whens = Object.entries(STATUS_CLASSES).map(
    ([statusClass, statuses]) =>
      sql`WHEN ${status} IN (${sql.join(statuses.map((s) => sql.lit(s)))}) THEN ${sql.lit(statusClass)}`,
  )
  return sql`(CASE ${sql.join(whens, sql` `)} END)`
}

/** An ordering key that sorts status changes as their history does, followed by the status. */
const lastChangeKey = sql`printf('%s%012d', s.changed_on, s.id) || s.to_status`
/** The status out of a lastChangeKey: after the day (10 characters) and the id (12). */
const statusOfKey = (key: RawBuilder<unknown>) => sql`substr(${key}, 23)`

const holdingColumns = sql`cm.membership_type_id, coalesce(cm.billing_location_id, 0) AS billing_location_id,
  coalesce(cm.discount_association_id, 0) AS discount_association_id`

/**
 * The status changes that decide the range: for each membership, the last change naming no member
 * on or before `from` (its standing when the range starts) and those after it through `through`.
 * Changes after the range are not read, so a span still open at its end runs through it.
 */
function membershipChanges(r: Range) {
  return sql`SELECT s.id, s.customer_membership_id, s.to_status, s.changed_on
      FROM customer_memberships cm JOIN membership_status_changes s ON s.id = (
        SELECT x.id FROM membership_status_changes x
        WHERE x.customer_membership_id = cm.id AND x.member_customer_id IS NULL AND x.changed_on <= ${r.from}
        ORDER BY x.changed_on DESC, x.id DESC LIMIT 1
      )
    UNION ALL
    SELECT s.id, s.customer_membership_id, s.to_status, s.changed_on FROM membership_status_changes s
      WHERE s.changed_on > ${r.from} AND s.changed_on <= ${r.through} AND s.member_customer_id IS NULL`
}

/** The same for each member: the membership's changes, and the member's own last and later ones. */
function memberChanges(r: Range) {
  return sql`SELECT mm.id AS member_id, mm.customer_id, mm.customer_membership_id,
        s.id, s.member_customer_id, s.to_status, s.changed_on
      FROM membership_members mm JOIN membership_status_changes s ON s.id IN (
        (SELECT x.id FROM membership_status_changes x
          WHERE x.customer_membership_id = mm.customer_membership_id AND x.member_customer_id IS NULL
            AND x.changed_on <= ${r.from}
          ORDER BY x.changed_on DESC, x.id DESC LIMIT 1),
        (SELECT x.id FROM membership_status_changes x
          WHERE x.customer_membership_id = mm.customer_membership_id
            AND x.member_customer_id = mm.customer_id AND x.changed_on <= ${r.from}
          ORDER BY x.changed_on DESC, x.id DESC LIMIT 1)
      )
    UNION ALL
    SELECT mm.id, mm.customer_id, mm.customer_membership_id,
        s.id, s.member_customer_id, s.to_status, s.changed_on
      FROM membership_status_changes s JOIN membership_members mm
        ON mm.customer_membership_id = s.customer_membership_id
        AND (s.member_customer_id IS NULL OR s.member_customer_id = mm.customer_id)
      WHERE s.changed_on > ${r.from} AND s.changed_on <= ${r.through}`
}

const spanColumns = `member_id INTEGER, customer_id INTEGER, membership_type_id INTEGER NOT NULL,
  billing_location_id INTEGER NOT NULL, discount_association_id INTEGER NOT NULL,
  status_class TEXT NOT NULL, from_day TEXT NOT NULL, until TEXT NOT NULL`

/**
 * Temporary tables of this connection: the spans of the days a catch-up rolls, read by each of its
 * chunks, and the holding sets of one chunk, read by two of its statements.
 */
const WORK_TABLES = {
  rollup_membership_spans: spanColumns,
  rollup_member_spans: spanColumns,
  // The range's days, keyed: spreading a count over its days then seeks only the days it covers.
  rollup_days: 'day TEXT PRIMARY KEY',
  rollup_held_sets:
    'customer_id INTEGER NOT NULL, from_day TEXT NOT NULL, until TEXT NOT NULL, holding_ids TEXT NOT NULL',
}

async function clearWorkTable(trx: Db, table: keyof typeof WORK_TABLES): Promise<void> {
  await sql`CREATE TEMP TABLE IF NOT EXISTS ${sql.id(table)} (${sql.raw(WORK_TABLES[table])})`.execute(trx)
  await sql`DELETE FROM ${sql.id('temp', table)}`.execute(trx)
}

/**
 * Fills rollup_membership_spans (each membership's days in one status class) and
 * rollup_member_spans (the same for each member, whose status is the membership's, except that a
 * member frozen on their own, their latest change naming them saying FRZ, is frozen while the
 * membership is active, as the members report shows them) for the days `from` through `through`,
 * and records the holdings they stand for. Every rollDays of those days reads them: run it in the
 * transaction that claims the days, so no write comes between the history read and the claim.
 */
export async function prepareSpans(trx: Db, from: string, through: string): Promise<void> {
  const r: Range = { from, through, after: addDays(through, 1) }
  await clearWorkTable(trx, 'rollup_membership_spans')
  await clearWorkTable(trx, 'rollup_member_spans')
  await sql`INSERT INTO temp.rollup_membership_spans (membership_type_id, billing_location_id,
      discount_association_id, status_class, from_day, until)
    WITH history AS (
      SELECT customer_membership_id, to_status, changed_on,
        lead(changed_on, 1, ${r.after}) OVER (
          PARTITION BY customer_membership_id ORDER BY changed_on, id
        ) AS until
      FROM (${membershipChanges(r)})
    )
    SELECT * FROM (
      SELECT ${holdingColumns}, ${statusClassOf(sql`h.to_status`)} AS status_class,
        max(h.changed_on, ${r.from}) AS from_day, h.until
      FROM history h JOIN customer_memberships cm ON cm.id = h.customer_membership_id
      WHERE h.until > ${r.from} AND h.until > h.changed_on
    ) WHERE status_class IS NOT NULL`.execute(trx)
  const memberStatus = sql`(CASE WHEN ${statusOfKey(sql`membership_last`)} IN (${sql.join(
    ACTIVE_STATUSES.map((s) => sql.lit(s)),
  )}) AND ${statusOfKey(sql`own_last`)} = 'FRZ' THEN 'FRZ' ELSE ${statusOfKey(sql`membership_last`)} END)`
  await sql`INSERT INTO temp.rollup_member_spans
    WITH history AS (
      SELECT member_id, customer_id, customer_membership_id, changed_on,
        lead(changed_on, 1, ${r.after}) OVER in_order AS until,
        max(CASE WHEN s.member_customer_id IS NULL THEN ${lastChangeKey} END) OVER in_order
          AS membership_last,
        max(CASE WHEN s.member_customer_id IS NOT NULL THEN ${lastChangeKey} END) OVER in_order
          AS own_last
      FROM (${memberChanges(r)}) s
      WINDOW in_order AS (PARTITION BY member_id ORDER BY changed_on, id)
    )
    SELECT * FROM (
      SELECT h.member_id, h.customer_id, ${holdingColumns},
        ${statusClassOf(memberStatus)} AS status_class, max(h.changed_on, ${r.from}) AS from_day, h.until
      FROM history h JOIN customer_memberships cm ON cm.id = h.customer_membership_id
      WHERE h.until > ${r.from} AND h.until > h.changed_on
    ) WHERE status_class IS NOT NULL`.execute(trx)
  await sql`INSERT OR IGNORE INTO membership_holdings
      (membership_type_id, billing_location_id, discount_association_id, status_class)
    SELECT membership_type_id, billing_location_id, discount_association_id, status_class
      FROM temp.rollup_membership_spans
    UNION SELECT membership_type_id, billing_location_id, discount_association_id, status_class
      FROM temp.rollup_member_spans`.execute(trx)
}

/** The spans of a prepared table that fall in the range, cut to it. */
const spansIn = (table: 'rollup_membership_spans' | 'rollup_member_spans', r: Range) =>
  sql`(SELECT member_id, customer_id, membership_type_id, billing_location_id, discount_association_id,
      status_class, max(from_day, ${r.from}) AS from_day, min(until, ${r.after}) AS until
    FROM ${sql.id('temp', table)} WHERE from_day <= ${r.through} AND until > ${r.from})`

const sameHolding = (spans: string) =>
  sql`h.membership_type_id = ${sql.ref(`${spans}.membership_type_id`)}
    AND h.billing_location_id = ${sql.ref(`${spans}.billing_location_id`)}
    AND h.discount_association_id = ${sql.ref(`${spans}.discount_association_id`)}
    AND h.status_class = ${sql.ref(`${spans}.status_class`)}`

/**
 * From `keyed` (columns `keys`, from_day, until: spans of days, until exclusive) the number of
 * spans on each day of the range per key, for the days where it is not zero: a running sum over
 * the days where spans start and end, spread over the days until the next such day.
 */
function dailyTotals(r: Range, keys: readonly string[]) {
  const key = sql.join(keys.map((k) => sql.ref(k)))
  const levelKey = sql.join(keys.map((k) => sql.ref(`levels.${k}`)))
  return sql`changes AS (
      SELECT ${key}, day, sum(delta) AS delta FROM (
        SELECT ${key}, from_day AS day, 1 AS delta FROM keyed
        UNION ALL SELECT ${key}, until AS day, -1 AS delta FROM keyed
      ) GROUP BY ${key}, day
    ),
    levels AS (
      SELECT ${key}, day, sum(delta) OVER (PARTITION BY ${key} ORDER BY day) AS level,
        lead(day, 1, ${r.after}) OVER (PARTITION BY ${key} ORDER BY day) AS level_until
      FROM changes
    )
    SELECT days.day, ${levelKey}, levels.level FROM levels
    JOIN temp.rollup_days days ON days.day >= levels.day AND days.day < levels.level_until
    WHERE levels.level > 0`
}

/**
 * Fills rollup_held_sets: each customer's days of the range, cut where any of their holdings (as a
 * member) starts or ends, with the set of holdings they have throughout each piece.
 */
async function fillHeldSets(trx: Db, r: Range): Promise<void> {
  await clearWorkTable(trx, 'rollup_held_sets')
  await sql`INSERT INTO temp.rollup_held_sets (customer_id, from_day, until, holding_ids)
    WITH member_holdings AS MATERIALIZED (
      SELECT ms.customer_id, h.id AS holding_id, ms.from_day, ms.until
      FROM ${spansIn('rollup_member_spans', r)} ms JOIN membership_holdings h ON ${sameHolding('ms')}
    ),
    bounds AS (
      SELECT customer_id, from_day AS day FROM member_holdings
      UNION SELECT customer_id, until AS day FROM member_holdings
    ),
    pieces AS (
      SELECT customer_id, day AS from_day,
        lead(day) OVER (PARTITION BY customer_id ORDER BY day) AS until
      FROM bounds
    )
    SELECT p.customer_id, p.from_day, p.until,
      group_concat(DISTINCT mh.holding_id ORDER BY mh.holding_id) AS holding_ids
    FROM pieces p JOIN member_holdings mh ON mh.customer_id = p.customer_id
      AND mh.from_day <= p.from_day AND mh.until > p.from_day
    WHERE p.until IS NOT NULL
    GROUP BY p.customer_id, p.from_day`.execute(trx)
}

/**
 * Replaces the rollup's rows for `from` through `through` (and, with `dropLater`, every row after
 * it: days a clock set back had rolled ahead of today), from the spans prepareSpans made for days
 * that include these. Run inside the caller's transaction.
 */
export async function rollDays(
  trx: Db,
  from: string,
  through: string,
  { dropLater }: { dropLater: boolean },
): Promise<void> {
  const r: Range = { from, through, after: addDays(through, 1) }
  for (const table of ['membership_day_counts', 'member_day_counts', 'add_on_day_counts'] as const) {
    let remove = trx.deleteFrom(table).where('day', '>=', from)
    if (!dropLater) remove = remove.where('day', '<=', through)
    await remove.execute()
  }
  await clearWorkTable(trx, 'rollup_days')
  await sql`INSERT INTO temp.rollup_days (day)
    WITH RECURSIVE days (day) AS (
      SELECT ${r.from} UNION ALL SELECT date(day, '+1 day') FROM days WHERE day < ${r.through}
    )
    SELECT day FROM days`.execute(trx)
  await sql`INSERT INTO membership_day_counts (day, holding_id, memberships)
    WITH     keyed AS (
      SELECT h.id AS holding_id, ms.from_day, ms.until
      FROM ${spansIn('rollup_membership_spans', r)} ms JOIN membership_holdings h ON ${sameHolding('ms')}
    ),
    ${dailyTotals(r, ['holding_id'])}`.execute(trx)
  await sql`INSERT INTO add_on_day_counts (day, holding_id, add_on_name, add_ons)
    WITH     keyed AS (
      SELECT h.id AS holding_id, a.name AS add_on_name, ms.from_day, ms.until
      FROM ${spansIn('rollup_member_spans', r)} ms
      JOIN membership_member_add_ons ma ON ma.membership_member_id = ms.member_id
      JOIN add_ons a ON a.id = ma.add_on_id
      JOIN membership_holdings h ON ${sameHolding('ms')}
    ),
    ${dailyTotals(r, ['holding_id', 'add_on_name'])}`.execute(trx)
  await fillHeldSets(trx, r)
  const newSets = await sql<{ id: number }>`INSERT INTO member_holding_sets (holding_ids)
    SELECT DISTINCT holding_ids FROM temp.rollup_held_sets WHERE true
    ON CONFLICT (holding_ids) DO NOTHING
    RETURNING id`.execute(trx)
  if (newSets.rows.length > 0) {
    await sql`INSERT INTO member_holding_set_items (set_id, holding_id)
      SELECT s.id, item.value FROM member_holding_sets s, json_each('[' || s.holding_ids || ']') item
      WHERE s.id IN (SELECT value FROM json_each(${JSON.stringify(newSets.rows.map((row) => row.id))}))`.execute(
      trx,
    )
  }
  await sql`INSERT INTO member_day_counts (day, set_id, members)
    WITH     keyed AS (
      SELECT s.id AS set_id, held.from_day, held.until
      FROM temp.rollup_held_sets held JOIN member_holding_sets s ON s.holding_ids = held.holding_ids
    ),
    ${dailyTotals(r, ['set_id'])}`.execute(trx)
}
