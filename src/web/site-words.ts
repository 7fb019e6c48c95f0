/** What the desk says of the box as one site among the organization's. */
import { timeInZone } from './format.ts'
import type { LostCard, SiteLink } from './types.ts'

/** The banner's words while the box is cut off from the other sites; null while it is not. */
export function cutOffLine(link: SiteLink, timeZone?: string): string | null {
  if (link.site === null || link.hub_reachable !== false) return null
  const since = link.hub_unreachable_since
  return [
    `Cut off from the other gyms${since === null ? '' : ` since ${timeInZone(since, timeZone)}`}.`,
    'This desk keeps working: its changes go to the other gyms when the link returns.',
  ].join(' ')
}

/** Why the customer has no card now, and what the desk does about it. */
export function lostCardLine(lost: LostCard): string {
  const keeper = lost.kept_by_customer_name ?? `customer ${lost.kept_by_customer_id}`
  return [
    `Card ${lost.barcode} was given to this customer at site ${lost.site} and to ${keeper} at another site`,
    `while the two were cut off from each other. It stays with ${keeper}: give this customer a new card.`,
  ].join(' ')
}
