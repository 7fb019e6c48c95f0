import { describe, expect, test } from 'bun:test'
import type { Customer } from '../../../src/db/schema.ts'
import { ORIGIN, START } from '../../helpers/app.ts'
import {
  doesNotExist,
  emptyPage,
  invalidChoice,
  invalidInteger,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { makeCustomer } from '../../helpers/customer-factories.ts'
import { customerRecordSuite, useCustomerRecordFixture } from '../../helpers/customer-record-checks.ts'
import { makeRelation } from '../../helpers/customer-record-factories.ts'
import { type RefusedPost, testEachRefusedPost, useSeededApp } from '../../helpers/seeded.ts'

/**
 * /api/customers/<customer_id>/relations/: list, read,
 * create, DELETE; no PUT or PATCH. Creating A→B also creates B→A with the mirrored code; deleting
 * either removes both. Order: 401 -> 400 -> 403 -> 404/405 -> success.
 */

const t = useSeededApp()
const f = useCustomerRecordFixture(t)

/** Both directions, as the API stores them; the id of customerId's side. */
async function relatePair(customerId: number, relatedId: number, relation = 'SIB' as const) {
  const row = await makeRelation(t.db, customerId, { related_customer_id: relatedId, relation })
  await makeRelation(t.db, relatedId, { related_customer_id: customerId, relation })
  return row.id
}

const suite = customerRecordSuite(t, f, {
  name: 'relations',
  table: 'customer_relations',
  valid: () => ({ related_customer_id: f.other.id, relation: 'SPO' }),
  make: async (customerId) =>
    relatePair(customerId, (await makeCustomer(t.db, { first_name: 'Chris', last_name: 'Sharma' })).id),
  writes: ['DELETE'],
})
const { recordPath, post, list, count: relationCount } = suite

/** The whole record of `base`'s relation `id` to `related`. */
function relationBody(id: number, related: Customer, relation: string, base: Customer = f.customer) {
  return {
    id,
    url: `${ORIGIN}${recordPath(id, base.id)}`,
    related_customer_id: related.id,
    related_customer_url: `${ORIGIN}/api/customers/${related.id}/`,
    related_customer_email: related.email,
    related_customer_first_name: related.first_name,
    related_customer_last_name: related.last_name,
    relation,
    created_at: START,
    updated_at: START,
  }
}

const relatedToSelf = ['A customer cannot be related to themselves.']
const alreadyRelated = ['customer relation with this related customer already exists.']

suite.describeUnauthenticated()

describe('relations 400', () => {
  test('POST with an empty body needs related_customer_id and relation', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ related_customer_id: required, relation: required })
    expect(await relationCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    [
      'an unknown related customer',
      () => ({ related_customer_id: 999, relation: 'SPO' }),
      () => ({ related_customer_id: doesNotExist(999) }),
    ],
    [
      'a non-integer related_customer_id',
      () => ({ related_customer_id: 'abc', relation: 'SPO' }),
      () => ({ related_customer_id: invalidInteger }),
    ],
    [
      'a null related_customer_id',
      () => ({ related_customer_id: null, relation: 'SPO' }),
      () => ({ related_customer_id: notNull }),
    ],
    [
      'the customer itself',
      () => ({ related_customer_id: f.customer.id, relation: 'SIB' }),
      () => ({ related_customer_id: relatedToSelf }),
    ],
    [
      'relation XYZ',
      () => ({ related_customer_id: f.other.id, relation: 'XYZ' }),
      () => ({ relation: invalidChoice('XYZ') }),
    ],
    [
      'relation in lower case',
      () => ({ related_customer_id: f.other.id, relation: 'chi' }),
      () => ({ relation: invalidChoice('chi') }),
    ],
    [
      'a blank relation',
      () => ({ related_customer_id: f.other.id, relation: '' }),
      () => ({ relation: invalidChoice('') }),
    ],
    [
      'an unknown customer and a bad relation (both reported)',
      () => ({ related_customer_id: 999, relation: 'XYZ' }),
      () => ({ related_customer_id: doesNotExist(999), relation: invalidChoice('XYZ') }),
    ],
  ]

  testEachRefusedPost(cases, { post, count: relationCount })

  test('a pair already related is 400, from either side, whatever the relation', async () => {
    await relatePair(f.customer.id, f.other.id)
    for (const [customerId, relatedId] of [
      [f.customer.id, f.other.id],
      [f.other.id, f.customer.id],
    ] as const) {
      const res = await post({ related_customer_id: relatedId, relation: 'OTH' }, f.membersToken, customerId)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ related_customer_id: alreadyRelated })
    }
    expect(await relationCount()).toBe(2)
  })

  test('a duplicate is reported together with a bad relation', async () => {
    await relatePair(f.customer.id, f.other.id)
    const res = await post({ related_customer_id: f.other.id, relation: 'XYZ' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ related_customer_id: alreadyRelated, relation: invalidChoice('XYZ') })
  })
})

suite.describeForbidden()
suite.describeNotFoundAndNotAllowed()

describe('relations success', () => {
  test('POST A→B (B is A’s child) creates B→A (A is B’s parent) too', async () => {
    const res = await post({ related_customer_id: f.other.id, relation: 'CHI' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(relationBody(res.body.id, f.other, 'CHI'))
    const reverse = await list(f.other.id)
    expect(reverse).toEqual(onePage([relationBody(reverse.results[0].id, f.customer, 'PRE', f.other)]))
    expect(await list(f.customer.id)).toEqual(onePage([res.body]))
    expect(await relationCount()).toBe(2)
  })

  const mirrors: Array<[string, string]> = [
    ['SPO', 'SPO'],
    ['PRT', 'PRT'],
    ['PRE', 'CHI'],
    ['CHI', 'PRE'],
    ['GUA', 'WAR'],
    ['WAR', 'GUA'],
    ['SIB', 'SIB'],
    ['OTH', 'OTH'],
  ]
  for (const [code, mirrored] of mirrors) {
    test(`${code} is mirrored as ${mirrored}`, async () => {
      const res = await post({ related_customer_id: f.other.id, relation: code }, t.seed.adminToken)
      expect(res.status).toBe(201)
      expect(res.body.relation).toBe(code)
      expect((await list(f.other.id)).results.map((r: { relation: string }) => r.relation)).toEqual([
        mirrored,
      ])
    })
  }

  test('a related customer without an email shows null', async () => {
    const noEmail = await makeCustomer(t.db, { first_name: 'Kai', last_name: 'Lightner', email: null })
    const res = await post({ related_customer_id: noEmail.id, relation: 'SIB' })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(relationBody(res.body.id, noEmail, 'SIB'))
    expect(res.body.related_customer_email).toBeNull()
  })

  test('a customer relates to several others, listed in id order', async () => {
    const third = await makeCustomer(t.db, {
      first_name: 'Chris',
      last_name: 'Sharma',
      email: 'chris@example.com',
    })
    const first = await post({ related_customer_id: f.other.id, relation: 'SPO' })
    const second = await post({ related_customer_id: third.id, relation: 'CHI' })
    expect(await list(f.customer.id)).toEqual(
      onePage([relationBody(first.body.id, f.other, 'SPO'), relationBody(second.body.id, third, 'CHI')]),
    )
  })

  test('DELETE removes both directions: 204 with no body', async () => {
    const created = await post({ related_customer_id: f.other.id, relation: 'GUA' })
    const res = await t.request('DELETE', recordPath(created.body.id), { token: f.membersToken })
    expect(res.status).toBe(204)
    expect(res.body).toBe('')
    expect(await list(f.customer.id)).toEqual(emptyPage)
    expect(await list(f.other.id)).toEqual(emptyPage)
    expect(await relationCount()).toBe(0)
  })

  test("DELETE of the reverse side removes both too, and leaves the customers' other relations", async () => {
    const third = await makeCustomer(t.db, { first_name: 'Chris', last_name: 'Sharma' })
    const kept = await post({ related_customer_id: third.id, relation: 'SIB' })
    await post({ related_customer_id: f.other.id, relation: 'PRE' })
    const reverseId = (await list(f.other.id)).results[0].id
    const res = await t.request('DELETE', recordPath(reverseId, f.other.id), { token: t.seed.adminToken })
    expect(res.status).toBe(204)
    expect(await list(f.other.id)).toEqual(emptyPage)
    expect(await list(f.customer.id)).toEqual(onePage([kept.body]))
    expect(await relationCount()).toBe(2)
  })

  test('after a DELETE the pair can be related again, with another code', async () => {
    const created = await post({ related_customer_id: f.other.id, relation: 'PRT' })
    await t.request('DELETE', recordPath(created.body.id), { token: f.membersToken })
    const again = await post({ related_customer_id: f.other.id, relation: 'SPO' })
    expect(again.status).toBe(201)
    expect(again.body).toEqual(relationBody(again.body.id, f.other, 'SPO'))
  })

  test('a second DELETE of the same relation is 404', async () => {
    const created = await post({ related_customer_id: f.other.id, relation: 'SIB' })
    await t.request('DELETE', recordPath(created.body.id), { token: f.membersToken })
    const res = await t.request('DELETE', recordPath(created.body.id), { token: f.membersToken })
    expect(res.status).toBe(404)
  })

  test('two simultaneous requests relating the same pair create one pair', async () => {
    const results = await Promise.all([
      post({ related_customer_id: f.other.id, relation: 'SPO' }),
      post({ related_customer_id: f.customer.id, relation: 'SPO' }, f.membersToken, f.other.id),
    ])
    expect(results.map((r) => r.status).sort()).toEqual([201, 400])
    expect(await relationCount()).toBe(2)
  })
})
