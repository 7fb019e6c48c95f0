import { describe, expect, test } from 'bun:test'
import { START } from '../helpers/app.ts'
import { makeCustomer, makeDocument } from '../helpers/customer-factories.ts'
import { barcodePath, makeDoorCustomer, makeMembershipFor } from '../helpers/door-factories.ts'
import { useSeededApp } from '../helpers/seeded.ts'

/*
 * "Has a usable waiver" (src/domain/waiver.ts), asked where it is used, on a migrated database: the
 * door, where the organization requires a waiver (a member is let in, or refused with the built-in
 * "No waiver" alert), and the customer record (active_waiver_exists). Both answer every case alike.
 * Instants are UTC; the gym and the organization are in Denver (MST, UTC-7): START is Sunday
 * 2026-11-22 08:04:05 there.
 */

const t = useSeededApp()

interface Document {
  expiration_date: string | null
  kind?: 'waiver' | 'other'
  /** the document is another customer's */
  ofSomeoneElse?: true
}

type Case = [name: string, documents: Document[], now: string, usable: boolean]

const cases: Case[] = [
  ['no waiver documents', [], START, false],
  ['a waiver without an expiration date', [{ expiration_date: null }], START, true],
  ['a waiver expiring today', [{ expiration_date: '2026-11-22' }], START, true],
  [
    'a waiver expiring today, at 23:59:59 local (already tomorrow in UTC)',
    [{ expiration_date: '2026-11-22' }],
    '2026-11-23T06:59:59.999Z',
    true,
  ],
  [
    'a waiver that expired yesterday (today is the next local day from midnight)',
    [{ expiration_date: '2026-11-22' }],
    '2026-11-23T07:00:00.000Z',
    false,
  ],
  ['a waiver that expired yesterday', [{ expiration_date: '2026-11-21' }], START, false],
  [
    'an expired waiver and a valid one',
    [{ expiration_date: '2025-11-21' }, { expiration_date: '2027-11-21' }],
    START,
    true,
  ],
  [
    'a document that is not a waiver, without expiry',
    [{ kind: 'other', expiration_date: null }],
    START,
    false,
  ],
  [
    'an expired waiver beside an unexpired document that is not a waiver',
    [{ expiration_date: '2026-11-21' }, { kind: 'other', expiration_date: '2030-01-01' }],
    START,
    false,
  ],
  ["another customer's waiver", [{ expiration_date: null, ofSomeoneElse: true }], START, false],
  [
    "another customer's waiver beside the customer's own expired one",
    [{ expiration_date: '2026-11-21' }, { expiration_date: '2027-11-21', ofSomeoneElse: true }],
    START,
    false,
  ],
]

describe('a usable waiver, at the door and on the customer record', () => {
  for (const [name, documents, now, usable] of cases) {
    test(name, async () => {
      const customer = await makeDoorCustomer(t.db, 'WAIVER1', { waiver: false })
      await makeMembershipFor(t.db, customer.id)
      const someoneElse = await makeCustomer(t.db, { first_name: 'Someone', last_name: 'Else' })
      for (const { ofSomeoneElse, ...document } of documents) {
        await makeDocument(t.db, ofSomeoneElse ? someoneElse.id : customer.id, document)
      }
      t.clock.set(now)
      const scan = await t.request('POST', barcodePath('WAIVER1'), { token: t.seed.staffToken })
      const record = await t.request('GET', `/api/customers/${customer.id}/`, { token: t.seed.staffToken })
      expect({
        door: scan.status === 200 ? 'admitted' : scan.body.alerts,
        record: record.body.active_waiver_exists,
      }).toEqual({ door: usable ? 'admitted' : ['No waiver'], record: usable })
    })
  }
})
