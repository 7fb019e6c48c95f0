import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream'
import type { HubLink } from './hub-link.ts'
import { HubRefusal, HubUnreachableError, type SiteHeartbeat, type SiteStatus } from './hub-types.ts'

/**
 * The registry of sites is one key of the organization's sites bucket, changed only by
 * compare-and-set on its revision: two boxes joining at once cannot take the same number, and a
 * number once given is never given again. One key holds the organization's few sites easily.
 */
const REGISTRY_KEY = 'registry'
const heartbeatKey = (site: string) => `heartbeat.${site}`

interface Registry {
  sites: Record<string, { number: number; database_id: string }>
}

/** Enough rounds for every box of an organization joining in the same instant. */
const MAX_REGISTRY_ROUNDS = 100

export async function siteNumber(link: HubLink, databaseId: string): Promise<number> {
  const { sites } = await link.resources()
  for (let round = 0; round < MAX_REGISTRY_ROUNDS; round++) {
    const entry = await sites.get(REGISTRY_KEY)
    const current = entry?.operation === 'PUT' ? entry : null
    const registry: Registry = current ? current.json<Registry>() : { sites: {} }
    const known = registry.sites[link.site]
    if (known) {
      if (known.database_id !== databaseId)
        throw new HubRefusal(
          'site_name_taken',
          `the site name ${link.site} is taken on the hub by another database (site number ${known.number})`,
        )
      return known.number
    }
    const number = Math.max(0, ...Object.values(registry.sites).map((site) => site.number)) + 1
    registry.sites[link.site] = { number, database_id: databaseId }
    try {
      const value = JSON.stringify(registry)
      if (current) await sites.update(REGISTRY_KEY, value, current.revision)
      else await sites.create(REGISTRY_KEY, value)
      return number
    } catch (error) {
      // Another box changed the registry since it was read: read it again.
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence))
        throw error
    }
  }
  throw new HubUnreachableError('the registry of sites kept changing under this join')
}

export async function heartbeat(link: HubLink, state: SiteHeartbeat): Promise<void> {
  const { sites } = await link.resources()
  const value: SiteHeartbeat = {
    appliedStreamSequence: state.appliedStreamSequence,
    unsentChanges: state.unsentChanges,
    applyingStopped: state.applyingStopped,
  }
  await sites.put(heartbeatKey(link.site), JSON.stringify(value))
}

/** Every registered site by number, with its last heartbeat; the time is the hub's, not a box's. */
export async function listSites(link: HubLink): Promise<SiteStatus[]> {
  const { sites } = await link.resources()
  const entry = await sites.get(REGISTRY_KEY)
  const registry: Registry = entry?.operation === 'PUT' ? entry.json<Registry>() : { sites: {} }
  const statuses = await Promise.all(
    Object.entries(registry.sites).map(async ([site, { number }]): Promise<SiteStatus> => {
      const beat = await sites.get(heartbeatKey(site))
      if (beat?.operation !== 'PUT') return { site, number, lastSeen: null }
      return { site, number, lastSeen: beat.created, ...beat.json<SiteHeartbeat>() }
    }),
  )
  return statuses.sort((a, b) => a.number - b.number)
}
