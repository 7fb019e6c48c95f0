import { Type as t } from '@sinclair/typebox'
import { out } from '../../http/fields.ts'
import { defineFilters } from '../../http/filters.ts'

const count = (description: string) => t.Union([t.Integer({ minimum: 0 }), t.Null()], { description })

export const SiteOut = t.Object(
  {
    name: t.String({ description: "The site's name (`--site`)" }),
    number: t.Integer({
      minimum: 1,
      description:
        'Given by the hub when the site first joined: the ids it allocates are this number modulo 1024',
    }),
    this_box: t.Boolean({ description: 'True for the box that answers' }),
    last_seen: t.Union([out.datetime(), t.Null()], {
      description:
        "The site's last heartbeat (every few seconds), by the hub's clock; null before its first, and for this box while the hub is unreachable",
    }),
    applied_stream_sequence: count(
      "How far along the organization's stream the site has applied (its own changes count as applied); for another site, as of its last heartbeat",
    ),
    unapplied_changes: count(
      "How far behind the site is: the stream's last sequence minus `applied_stream_sequence`; null while the hub is unreachable or before the site's first heartbeat",
    ),
    unsent_changes: count(
      'Row changes recorded at the site that the hub has not acknowledged yet; for another site, as of its last heartbeat',
    ),
    oldest_unsent_age_seconds: count(
      'This box only: how long its oldest unsent change has waited; null when none waits, and for other sites',
    ),
    applying_stopped: t.Union([t.String(), t.Null()], {
      description:
        'Why the site stopped applying the stream (a change from a newer schema level: upgrade it), or null',
    }),
    hub_reachable: t.Union([t.Boolean(), t.Null()], {
      description: 'This box only: whether its link to the hub is up now; null for other sites',
    }),
    hub_unreachable_since: t.Union([out.datetime(), t.Null()], {
      description: 'This box only: since when the hub has been unreachable; null while it is reachable',
    }),
  },
  {
    description: 'One site of the organization: a box, its place in the stream and what it has not yet sent',
  },
)

export const SiteLinkOut = t.Object(
  {
    site: t.Union([t.String(), t.Null()], {
      description: "This box's site name; null on a box without a hub (then every other field is null too)",
    }),
    hub_reachable: t.Union([t.Boolean(), t.Null()], { description: 'Whether the link to the hub is up now' }),
    hub_unreachable_since: t.Union([out.datetime(), t.Null()], {
      description: 'Since when the hub has been unreachable; null while it is reachable',
    }),
    unsent_changes: count('Row changes recorded here that the hub has not acknowledged yet'),
  },
  { description: "This box's link to the other sites, as the desk's banner reads it" },
)

const rowKey = t.Array(t.Union([t.Integer(), t.String()]), {
  description: "The row's key values, in the order of its table's key (a customer's: `[id]`)",
})

export const SiteConflictOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    table: t.String({ description: 'The table both rows are in, such as `customers`' }),
    columns: t.Array(t.String(), {
      description: 'The unique column, or the columns unique together, such as `["barcode"]`',
    }),
    value: t.String({
      description: 'The value both rows were given, as text (several joined by ", "); for `not applied`, why',
    }),
    kept_row_key: rowKey,
    lost_row_key: rowKey,
    lost_site: t.String({ description: 'The site that gave the value to the row that lost it' }),
    resolution: t.Union([t.Literal('cleared'), t.Literal('refused'), t.Literal('not applied')], {
      description:
        "`cleared`: the losing row is kept without the value (a customer without a barcode); `refused`: the losing row's change is not kept; `not applied`: a row change this box's rows refused (a constraint they break, such as a row whose parent was deleted here meanwhile), `value` holding SQLite's reason and both keys the row's: the rest of its change was applied",
    }),
    detected_at: t.String({
      format: 'date-time',
      readOnly: true,
      description: 'When this box applied the change that met it (each site notes its own time)',
    }),
    customer_url: t.Union([out.url(), t.Null()], {
      description: 'For `customers`: the customer who lost the value; null for other tables',
    }),
  },
  {
    description:
      "A unique value two sites gave to two rows while they were apart: the row given it first (by the sites' clocks) kept it",
  },
)

export const conflictFilters = defineFilters({
  table: { kind: 'exact', description: 'The table, such as `customers`' },
  lost_site: { kind: 'exact', description: 'The site that gave the value to the row that lost it' },
  customer_id: { kind: 'id', description: 'Conflicts in which this customer lost a value' },
})
