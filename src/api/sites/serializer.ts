import type { Static } from '@sinclair/typebox'
import type { SiteLocalStatus } from '../../core/sites/site.ts'
import type { SiteStatus } from '../../core/sites/hub-types.ts'
import type { Urls } from '../../http/urls.ts'
import type { ConflictRow } from './queries.ts'
import type { SiteConflictOut, SiteLinkOut, SiteOut } from './schema.ts'

const behind = (lastSequence: number | null, applied: number | null | undefined) =>
  lastSequence === null || applied === null || applied === undefined
    ? null
    : Math.max(0, lastSequence - applied)

/** This box, from its own state: what it has sent and applied is known here, not from a heartbeat. */
export function serializeThisSite(
  local: SiteLocalStatus,
  heard: SiteStatus | undefined,
  lastSequence: number | null,
): Static<typeof SiteOut> {
  return {
    name: local.site,
    number: local.siteNumber,
    this_box: true,
    last_seen: heard?.lastSeen?.toISOString() ?? null,
    applied_stream_sequence: local.appliedStreamSequence,
    unapplied_changes: behind(lastSequence, local.appliedStreamSequence),
    unsent_changes: local.unsentRows,
    oldest_unsent_age_seconds: local.oldestUnsentAgeSeconds,
    applying_stopped: local.applyingStopped,
    hub_reachable: local.hubReachable,
    hub_unreachable_since: local.hubUnreachableSince?.toISOString() ?? null,
  }
}

/** Another site, as its last heartbeat on the hub tells it. */
export function serializeOtherSite(site: SiteStatus, lastSequence: number | null): Static<typeof SiteOut> {
  return {
    name: site.site,
    number: site.number,
    this_box: false,
    last_seen: site.lastSeen?.toISOString() ?? null,
    applied_stream_sequence: site.appliedStreamSequence ?? null,
    unapplied_changes: behind(lastSequence, site.appliedStreamSequence),
    unsent_changes: site.unsentChanges ?? null,
    oldest_unsent_age_seconds: null,
    applying_stopped: site.applyingStopped ?? null,
    hub_reachable: null,
    hub_unreachable_since: null,
  }
}

export function serializeLink(local: SiteLocalStatus | null): Static<typeof SiteLinkOut> {
  return {
    site: local?.site ?? null,
    hub_reachable: local?.hubReachable ?? null,
    hub_unreachable_since: local?.hubUnreachableSince?.toISOString() ?? null,
    unsent_changes: local?.unsentRows ?? null,
  }
}

export function serializeConflict(row: ConflictRow, urls: Urls): Static<typeof SiteConflictOut> {
  const lostKey = JSON.parse(row.lost_row_key) as Array<number | string>
  return {
    id: row.id,
    url: urls.abs('/api/sites/conflicts', row.id),
    table: row.table_name,
    columns: JSON.parse(row.column_names) as string[],
    value: row.value,
    kept_row_key: JSON.parse(row.kept_row_key) as Array<number | string>,
    lost_row_key: lostKey,
    lost_site: row.lost_site,
    resolution: row.resolution,
    detected_at: row.detected_at,
    customer_url: row.table_name === 'customers' ? urls.abs('/api/customers', lostKey[0]!) : null,
  }
}
