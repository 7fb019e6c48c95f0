import { describe, expect, test } from 'bun:test'
import { cutOffLine, lostCardLine } from '../../src/web/site-words.ts'

/**
 * What the desk says of the sites: the banner while the box is cut off from the hub, and a card a
 * customer lost to another site's customer. A box with a hub needs nats-server and a link to cut,
 * which the end-to-end sites tests have; here, the words from the API's JSON.
 */

const linked = { site: 'north', hub_reachable: true, hub_unreachable_since: null, unsent_changes: 0 }

describe('the banner while the box is cut off from the hub', () => {
  test('says since when, in the gym’s zone', () => {
    const link = { ...linked, hub_reachable: false, hub_unreachable_since: '2026-11-22T21:05:00.000Z' }
    expect(cutOffLine(link, 'America/Denver')).toBe(
      'Cut off from the other gyms since 14:05. This desk keeps working: its changes go to the other gyms when the link returns.',
    )
    expect(cutOffLine(link, 'Europe/Paris')).toBe(
      'Cut off from the other gyms since 22:05. This desk keeps working: its changes go to the other gyms when the link returns.',
    )
  })

  test('without a time, says it without one', () => {
    expect(cutOffLine({ ...linked, hub_reachable: false }, 'UTC')).toBe(
      'Cut off from the other gyms. This desk keeps working: its changes go to the other gyms when the link returns.',
    )
  })

  test('shows nothing while linked, nor on a box without a hub', () => {
    expect(cutOffLine(linked, 'UTC')).toBeNull()
    expect(
      cutOffLine(
        { site: null, hub_reachable: null, hub_unreachable_since: null, unsent_changes: null },
        'UTC',
      ),
    ).toBeNull()
  })
})

describe('a card lost to another site’s customer', () => {
  const lost = {
    barcode: '1234',
    site: 'south',
    kept_by_customer_id: 17,
    kept_by_customer_url: 'http://localhost/api/customers/17/',
    kept_by_customer_name: 'Alex Honnold',
    detected_at: '2026-11-22T15:04:05.123Z',
  }

  test('says who keeps it and what to do', () => {
    expect(lostCardLine(lost)).toBe(
      'Card 1234 was given to this customer at site south and to Alex Honnold at another site while the two were cut off from each other. It stays with Alex Honnold: give this customer a new card.',
    )
  })

  test('names the keeper by number should they not be on this box', () => {
    expect(lostCardLine({ ...lost, kept_by_customer_name: null })).toBe(
      'Card 1234 was given to this customer at site south and to customer 17 at another site while the two were cut off from each other. It stays with customer 17: give this customer a new card.',
    )
  })
})
