import type { Db } from '../../src/db/connection.ts'
import type { StaffUser } from '../../src/db/schema.ts'
import { seedDemoData } from '../../src/demo/index.ts'
import { START } from '../helpers/app.ts'
import { makeCheckIn } from '../helpers/check-in-factories.ts'
import { makeToken, makeUser } from '../helpers/factories.ts'
import { makeWebhook } from '../helpers/webhook-factories.ts'
import type { KnownValues, Tokens } from './requests.ts'

export interface FuzzTarget {
  /** The organization admin the fuzzer sends most requests as. */
  fuzzer: StaffUser
  tokens: Tokens
  known: KnownValues
  /**
   * A new token for the fuzzer, straight into the database, as logging in again would give one. The
   * fuzzer's own requests may revoke its token (logout, revoke-tokens on its own id), and logging in
   * cannot be relied on: get-token is fuzzed too, and the failures it causes throttle the address.
   * The user itself cannot be locked out otherwise: the API refuses deactivating or demoting oneself.
   */
  renewFuzzerToken(): Promise<void>
}

/**
 * What the fuzz test and benchmark send requests against, in a migrated, empty database: the small
 * demo (a record of every kind the API serves but webhooks and check-ins), a webhook, check-ins, the
 * fuzzer (an admin) and a desk user without permissions, each with a token, and the path parameter
 * values that name existing records.
 */
export async function prepareFuzzTarget(db: Db): Promise<FuzzTarget> {
  await seedDemoData(db, { size: 'small', seed: 1, now: new Date(START) })
  await makeWebhook(db, { webhook_url: 'http://127.0.0.1:9/hook' })
  for (const customerId of [1, 2, 3]) await makeCheckIn(db, { customer_id: customerId, gym_id: 1 })
  const fuzzer = await makeUser(db, { email: 'fuzzer@gym.example', is_organization_admin: 1 })
  const desk = await makeUser(db, { email: 'fuzzer-desk@gym.example' })
  const tokens = { fuzzer: await makeToken(db, fuzzer), desk: await makeToken(db, desk) }
  const barcodes = await db
    .selectFrom('customers')
    .select('barcode')
    .where('barcode', 'is not', null)
    .orderBy('id')
    .limit(5)
    .execute()
  // Ids 1 to 5 exist in every table the demo fills; the two users' own ids reach the actions on
  // oneself (revoke-tokens, unlock, a user's own record).
  const ids = ['1', '2', '3', '4', '5', String(fuzzer.id), String(desk.id)]
  return {
    fuzzer,
    tokens,
    known: {
      id: ids,
      customer_id: ids,
      webhook_event_id: ['1'],
      barcode: barcodes.map((row) => encodeURIComponent(row.barcode!)),
    },
    async renewFuzzerToken() {
      tokens.fuzzer = await makeToken(db, fuzzer)
    },
  }
}
