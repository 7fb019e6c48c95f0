import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { checkMembers, memberMessages, type MemberList } from '../../../src/core/memberships/members.ts'
import { openDatabase, type Connection, type Db } from '../../../src/db/connection.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { seedBasics } from '../../helpers/factories.ts'

/*
 * checkMembers (src/core/memberships/members.ts): who a new membership covers, as
 * /api/customer-memberships/ and a sale's MIN line ask it. Customers 1 to 3 exist; 999 does not.
 */

let connection: Connection
let db: Db

beforeEach(async () => {
  connection = openDatabase(':memory:')
  db = connection.db
  await migrateToLatest(db)
  await seedBasics(db)
  for (const first_name of ['Ada', 'Ben', 'Cy']) await makeCustomer(db, { first_name })
})
afterEach(() => connection.close())

/** The caller's words for an id naming no customer. */
const unknown = (id: number) => `unknown ${id}`

describe('checkMembers: who a new membership covers', () => {
  const cases: Array<[name: string, list: MemberList, ids: number[] | undefined, refusals: string[]]> = [
    ['no list: a solo membership covers its owner', { sent: undefined, ownerId: 2, isGroup: false }, [2], []],
    [
      'no list, no owner yet: nothing to store',
      { sent: undefined, ownerId: undefined, isGroup: false },
      undefined,
      [],
    ],
    ['a solo membership listing exactly its owner', { sent: [2], ownerId: 2, isGroup: false }, [2], []],
    [
      'a solo membership listing another customer',
      { sent: [3], ownerId: 2, isGroup: false },
      [3],
      [memberMessages.soloMembers],
    ],
    [
      'a solo membership listing its owner and another',
      { sent: [2, 3], ownerId: 2, isGroup: false },
      [2, 3],
      [memberMessages.soloMembers],
    ],
    ['a group covering others than its owner', { sent: [1, 3], ownerId: 2, isGroup: true }, [1, 3], []],
    ['a group with an empty list', { sent: [], ownerId: 2, isGroup: true }, [], [memberMessages.emptyList]],
    [
      'each refusal in list order: an unknown id, then a repeat',
      { sent: [1, 999, 1], ownerId: 2, isGroup: true },
      [1, 999, 1],
      [unknown(999), memberMessages.duplicateMember(1)],
    ],
    [
      'the type not known yet: only the customers are checked',
      { sent: [1, 2], ownerId: 2, isGroup: undefined },
      [1, 2],
      [],
    ],
  ]
  test.each(cases)('%s', async (_name, list, ids, refusals) => {
    expect(await checkMembers(db, list, unknown)).toEqual({ ids, refusals })
  })
})
