import { t } from 'elysia'
import { INTERVALS } from '../../core/metrics/buckets.ts'
import { choiceLiterals } from '../../http/fields.ts'

const date = (description: string) => t.String({ format: 'date', description })

/** Paragraphs of Markdown, kept as lines in the code and joined for the document. */
const markdown = (paragraphs: string[][]) => paragraphs.map((lines) => lines.join('\n')).join('\n\n')

/**
 * Every metric type with its filters, unit and what it counts: the rules a dashboard is built on.
 * The filters each type reads are the only ones it accepts; the engine refuses any other key.
 */
const METRIC_TYPES = markdown([
  [
    'The metric types, each with its filters (every list filter non-empty unless said otherwise;',
    '`location_ids` and other id lists are positive integers):',
  ],
  [
    "**`revenue`** (unit `currency`, additive). Each line's pre-tax share of every paid payment",
    '(`COM`, `PRF`, `REF`), line net × payment amount / invoice total, on the organization-local day',
    'the payment was taken. A payment taken at a terminal (`PRO`) counts once it completes, on the day',
    'it was taken; one that fails never counts. A bucket is rounded to cents once its shares are',
    'added (halves away from zero).',
    '- `product_type` (required): `membership` (lines `MIN`, `MRE`, `MFA`, `MFR`, `MAC`; a line that',
    "  names no membership type counts under its customer membership's type), `entry_pass` (`EPA`),",
    "  `event` (`BOO`; `product_ids` are event types: the booked event's), `voucher_pack` (`VPO` and",
    '  `EVV`; an `EVV` voucher has no pack, so it leaves the series once `product_ids` or an attribute',
    '  is given), `gift_card` (`GIF`), `other` (`GEN`, `LEG`), `all` (every line). `product_ids` or an',
    '  attribute filter with `gift_card`, `other` or `all` is refused.',
    '- `revenue_calculation`: `net` (default) takes each refund off on its own day, spread over the',
    "  payment's lines the same way, so a bucket can be negative; `gross` ignores refunds;",
    "  `net_of_fees` also takes off processor fees, a payment's on its day and a refund's on the",
    "  refund's, each spread over the lines by their part of the invoice total with tax.",
    '- `revenue_source`: `all` (default), `service` (`STR`, `GRA`, `MXM`, `SQU`, `MOK`), `pos` (`VEN`,',
    "  `PGI`), `offline` (`OFF`, `CRE`, `VOU`, `MIG`, `NA`); a refund counts under its payment's source.",
    '  `net_of_fees` with `pos` or `offline` is refused at `revenue_calculation`.',
    "- `location_ids`: the invoice's location. `product_ids` and the product attribute filters below.",
  ],
  [
    '**`check_in_count`** (unit `count`). Check-ins on the organization-local day they happened.',
    "- `check_in_type`: `all` (default) and `first_time` (each customer's first check-in, the one that",
    '  counted 1 in their running `check_in_count`) are additive; `unique` counts each customer once',
    '  per bucket, however often they came, and is not additive (`total` null).',
    '- `entry_method`: one code (`MEM`, `GUE`, `ENT`, `EVE`, `FRE`, `MIG`). The product of a check-in',
    "  is what let the customer in: the membership type of its membership (`MEM`), of the host's",
    '  membership for a guest (`GUE`), the entry pass type (`ENT`), the event type of the reservation',
    '  (`EVE`). `product_ids` and the product attribute filters require an `entry_method` with a',
    '  product (`GUE` takes the membership attributes) and are refused with `FRE` and `MIG`.',
    "- `location_ids`: the check-in's gym.",
    '- `time_of_day_start` (inclusive) and `time_of_day_end` (exclusive), `HH:MM` or `HH:MM:SS` on the',
    "  organization's wall clock, only with `daily`: 17:00 to 19:00 counts 17:00:00 through 18:59:59;",
    '  on the night daylight time ends both 01:30s are inside 01:00 to 02:00. An end before the start',
    '  wraps past midnight (22:00 to 02:00 counts both ends of each day, each on its own day); either',
    '  alone runs to midnight or from it; the same time twice is refused.',
    '- `day_of_week`: days in lower case (`sunday` to `saturday`); `[]` is every day. At `daily` the',
    '  other days are buckets of 0; at wider intervals each bucket counts its matching days only.',
  ],
  [
    '**`new_customer_count`** (unit `count`, additive). Customers by the organization-local day of',
    'their `first_check_in_timestamp`. `location_ids`: their home location.',
  ],
  [
    '**`product_sold_count`** (unit `count`, additive). One product acquired, on the',
    'organization-local day it was created, at the location that sold it; a product with no such',
    'location (made by staff without a sale) counts only when `location_ids` is not given.',
    '- `product_type` (required): `membership` (every customer membership started: sold on a `MIN`',
    "  line at that invoice's location, redeemed from a gift, or started by staff, both at its billing",
    '  location; renewals are not new products), `entry_pass` (every customer entry pass, at its',
    "  invoice's location, one from a gift at the location that sold the gift), `event` (every",
    "  reservation, cancelled since or not, at its `BOO` line's invoice location, else at the event's;",
    "  `product_ids` are event types), `voucher_pack` (every event voucher; its pack is its `VPO` line's",
    "  or its gift's, and one sold on an `EVV` line or made by staff has none, so it leaves the series",
    "  once `product_ids` or an attribute is given), `gift_card` (every gift code sold, at its `GIF` line's",
    '  invoice location).',
    '- `exclude_gift_redemptions`, `exclude_code_redemptions`, `exclude_manually_created` (booleans,',
    "  default false) drop products by how they were acquired (an entry pass's `acquired_via`: `gift`,",
    '  `code`, `manual`); `exclude_zero_paid` drops a product when no `COM`, `PRF` or `REF` payment of',
    '  more than 0.00 was made on an invoice with a line of it worth more than 0.00 (a product redeemed',
    '  from a gift counts as paid 0). An `exclude_*` that does not apply to the product type is',
    '  accepted and changes nothing.',
    '- `location_ids`, `product_ids` and the product attribute filters.',
  ],
  [
    "**`membership_count`** (unit `count`, not additive). The stock on a day: a membership's status",
    'on a day is the last status change recorded on or before it (a recurring membership stays active',
    'past its bill date until a change is recorded).',
    '- `status`: `active` (default: `ACT`, `IPP`, `PPR`), `frozen` (`FRZ`, `FPR`), `payment_failed`',
    '  (`PAF`, `FPF`), `active_and_frozen`, `active_frozen_and_payment_failed`.',
    '- `count_by`: `memberships` (default), `members`, `add_ons`. A member frozen on their own is',
    '  frozen for `members` and `add_ons` while their membership is active, as in the members report;',
    '  add-ons count by the status of the member who has them.',
    '- `value_in_period`: `start` (default) is the day before each bucket (the lead-in day for the',
    '  first), `end` its last day, `min` and `max` the least and most of its days. Days after today',
    '  read 0.',
    '- `add_on_names` only with `count_by` `add_ons` (names from',
    '  `GET /api/metrics/membership-add-on-names/`); `discount_association_id` (a positive integer),',
    '  ignored for `add_ons`; `membership_ids`, `billing_location_ids` and the membership attribute',
    '  filters.',
  ],
  [
    '**`customer_retention`**: customers by the organization-local day D of their',
    '`first_check_in_timestamp` at their home location (`location_ids`; a customer without one is only',
    'in the unfiltered series), retained when they checked in again on an organization-local day from',
    'D+1 to D+90, else lost. `component`: `rate` (default; retained / (retained + lost), unit',
    '`percent`, not additive), `retained` or `lost` (unit `count`, additive). A bucket has values once',
    'its last day is more than 100 days before today; until then every component is `null`. A',
    'settled bucket with nobody in it has a `null` rate and counts of 0.',
  ],
  [
    '**`product_conversion`** and **`first_check_in_conversion`**: customers followed from a day;',
    '`component` `converted` or `not_converted` (unit `count`, additive) or `rate` (default; converted',
    '/ (converted + not converted), unit `percent`, not additive, `null` for a settled bucket with',
    'nobody in it).',
    '- Customers who were **members already** on that day (holding, as owner or member, a membership',
    '  started before it and `ACT`, `IPP`, `PPR`, `FRZ` or `FPR` on it) are left out of every',
    '  component. They **converted** when they hold a membership starting between that day and the',
    '  end of `conversion_window` (`30_days` default, `60_days`, `90_days`, `120_days`, `180_days`,',
    '  `1_year` = 365 days) that has been in one of those statuses at some point (a denied membership,',
    '  or one never paid for, does not count). A membership starting on the day itself converts.',
    '- A bucket has values once its last day is more than the window before today; until then every',
    '  component is `null`.',
    '- `product_conversion` follows the first use of a product, per customer and product, on the',
    '  organization-local day of the check-in made with it (`MEM` with a membership of the type, `ENT`',
    "  with an entry pass of the type, `EVE` with a reservation of an event of the type; a guest's",
    "  check-in is not a use of the host's membership). `product_type` (required): `membership`,",
    '  `entry_pass` or `event`; `product_ids` and the product attribute filters. For `membership`',
    '  the membership used is neither why its holder was a member already nor how they became one.',
    "- `first_check_in_conversion` follows each customer's first check-in (the one that counted 1 in",
    '  their running `check_in_count`), filtered by its gym (`location_ids`), its `entry_method` and its',
    "  product (`GUE`: the host's membership type). `product_ids` requires `entry_method` and is refused",
    '  with `FRE` and `MIG`, which record no product.',
  ],
  [
    '**`member_churn`**: a membership churns on the day it ends (`END`) or is cancelled (`CAN`) from',
    'active, frozen or payment failed; one cancelled while awaiting its first payment never started,',
    'and a lapse to payment failed is not a churn. `component`: `rate` (default; unit `percent`, not',
    "additive) divides a bucket's churned memberships by those active (`ACT`, `IPP`, `PPR`) at its",
    'start, the end of the day before its first day; `null` when none was active, and it can pass 1',
    'when memberships start and end within the bucket. `churned` (unit `count`, additive). Statuses',
    "count on their recorded day (`changed_on`) and only the membership's own: one member frozen",
    'alone changes nothing. `membership_ids`, `billing_location_ids` (the billing location as it is',
    'now) and the membership attribute filters.',
  ],
  [
    '**`membership_referral_count`** (unit `count`, additive): memberships with a referring customer,',
    'by the bucket of their `start_date`, once that day has come, whatever their status now. Filters',
    'as `member_churn` without `component`.',
  ],
  [
    "**`membership_status_change_count`** (unit `count`, additive): a membership's own status changes",
    'by their `changed_on` day. `from_status` and `to_status` are one status code each (`ACT`, `IPP`,',
    "`PPR`, `FRZ`, `FPR`, `PAF`, `FPF`, `PAY`, `IPC`, `CAN`, `END`, `DEN`); a membership's first",
    'status is a change from none, so it counts unless `from_status` is given. A member frozen or',
    'unfrozen alone is not counted. Filters as `member_churn` otherwise.',
  ],
  [
    "**Product attribute filters** narrow a metric's products (all given filters together):",
    '`membership_purchase_types` (`recurring`, `prepaid`, `benefit`), `membership_billing_intervals`',
    '(`weekly`, `biweekly`, `four_weeks`, `monthly`, `quarterly`, `half_yearly`, `yearly`),',
    '`entry_pass_kinds` (`single`, `multi`), `event_schedule_types` (`recurring`, `multi_part`, `rolling`), `event_category_ids` and',
    '`product_statuses` (`active`, `retired`, `draft`), each refused where it does not describe the',
    "metric's products. They are resolved to product ids when the query runs, from each product's",
    'attributes as they are then, for every bucket: without `product_statuses` every status counts',
    '(a retired product keeps its history). An empty intersection with `product_ids` is a zero series',
    '(and `null` rates).',
  ],
])

/** A metric of the query: documentation of the body runMetricsQuery reads (it checks it itself). */
const MetricRequest = t.Object({
  id: t.String({ minLength: 1, description: 'Echoed as the series id; unique within the request' }),
  type: t.String({ description: METRIC_TYPES }),
  filters: t.Optional(
    t.Record(t.String(), t.Unknown(), {
      description:
        "The type's filters (see `type`); omitted or null for none. A key the type does not read is refused (`... is not a filter of revenue`), so a misspelt filter never turns into a series that silently counts everything.",
    }),
  ),
})

export const MetricsQuery = t.Object({
  interval: t.Optional(
    t.Union(choiceLiterals(INTERVALS), {
      default: 'daily',
    }),
  ),
  start_date: t.Optional(date('First day, organization-local; default 31 days before end_date')),
  end_date: t.Optional(date('Last day, inclusive, organization-local; default today')),
  metrics: t.Array(MetricRequest, { minItems: 1, maxItems: 100 }),
})

/** GET /api/metrics/membership-add-on-names/: a query's range, checked by the engine as the query's is. */
export const AddOnNamesQuery = t.Object({
  interval: t.Optional(t.String({ description: "As the query's; default daily" })),
  start_date: t.Optional(
    date('With end_date, the range a query reads, widened to whole buckets and the lead-in day'),
  ),
  end_date: t.Optional(
    date("Default today when start_date is given; neither date: all of the rollup's history"),
  ),
})

const Bucket = t.Object({ start_date: t.String({ format: 'date' }), end_date: t.String({ format: 'date' }) })

const Series = t.Object({
  id: t.String(),
  type: t.String(),
  unit: t.Union([t.Literal('currency'), t.Literal('count'), t.Literal('percent')]),
  additive: t.Boolean({ description: 'Whether summing buckets is meaningful' }),
  values: t.Array(t.Union([t.Number(), t.Null()]), { description: 'One per bucket, in bucket order' }),
  total: t.Union([t.Number(), t.Null()], {
    description: 'Sum of the non-null values of an additive series; null otherwise',
  }),
})

export const MetricsResultOut = t.Object({
  interval: t.String(),
  start_date: t.String({ format: 'date', description: 'The first day of the first bucket' }),
  end_date: t.String({ format: 'date', description: 'The last day of the last bucket' }),
  time_zone: t.String(),
  buckets: t.Array(Bucket),
  series: t.Array(Series),
})

/** A refused query: one sentence naming the metric and filter, as a bare JSON string. */
export const MetricsRefusal = t.String({
  description: 'What is wrong and where, e.g. "metrics[2].filters.product_ids: may not be an empty list"',
})
