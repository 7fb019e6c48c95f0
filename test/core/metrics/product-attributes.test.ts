import { describe, expect, test } from 'bun:test'
import { FilterReader } from '../../../src/core/metrics/filter-reader.ts'
import {
  readProductAttributes,
  resolveProducts,
  type ProductKind,
} from '../../../src/core/metrics/product-attributes.ts'
import { MetricsQueryRefused } from '../../../src/core/metrics/refusal.ts'
import { makeEventCategory, makeEventType } from '../../helpers/factories.ts'
import { makeEntryPassType, makeMembershipType, makeVoucherPack } from '../../helpers/product-factories.ts'
import { useSeededApp } from '../../helpers/seeded.ts'

// The product attribute filters: read against a metric's product dimension (rules 1 and 2), then
// resolved when the query runs to the ids of the products as they are now (rules 3 and 4).

const t = useSeededApp()

const read = (filters: Record<string, unknown>, kind: ProductKind | null, words = 'product_type x') => {
  const reader = new FilterReader(filters, 'metrics[0].filters', 'revenue')
  const attributes = readProductAttributes(reader, kind, words)
  return attributes
}
const refusal = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (error instanceof MetricsQueryRefused) return error.message
    throw error
  }
  return 'accepted'
}
const resolve = (kind: ProductKind, filters: Record<string, unknown>, ids?: number[]) =>
  resolveProducts(t.db, { kind, ids, attributes: read(filters, kind) })

describe('reading', () => {
  test('an attribute of another product type, or of a metric without one, is refused', () => {
    expect(
      refusal(() => read({ entry_pass_kinds: ['single'] }, 'membership', 'product_type membership')),
    ).toBe('metrics[0].filters.entry_pass_kinds: does not apply to product_type membership')
    expect(refusal(() => read({ product_statuses: ['active'] }, null, 'product_type gift_card'))).toBe(
      'metrics[0].filters.product_statuses: not allowed: product_type gift_card has no product attributes',
    )
    expect(refusal(() => read({ membership_purchase_types: [] }, 'membership'))).toBe(
      'metrics[0].filters.membership_purchase_types: may not be an empty list',
    )
    expect(refusal(() => read({ membership_billing_intervals: ['fortnightly'] }, 'membership'))).toBe(
      'metrics[0].filters.membership_billing_intervals[0]: must be one of weekly, biweekly, four_weeks, monthly, quarterly, half_yearly, yearly',
    )
    expect(refusal(() => read({ event_category_ids: [0] }, 'event'))).toBe(
      'metrics[0].filters.event_category_ids[0]: must be a positive integer',
    )
  })
})

describe('resolving', () => {
  test('membership types by purchase type, billing interval (recurring only) and status, within explicit ids', async () => {
    const monthly = await makeMembershipType(t.db, { purchase_type: 'REC', interval: 'MON', status: 'ACT' })
    const yearly = await makeMembershipType(t.db, { purchase_type: 'REC', interval: 'YRL', status: 'RET' })
    const prepaid = await makeMembershipType(t.db, { purchase_type: 'PRE', interval: '', status: 'ACT' })
    expect(await resolve('membership', {})).toBe('all')
    expect(await resolve('membership', { membership_purchase_types: ['recurring'] })).toEqual([
      monthly.id,
      yearly.id,
    ])
    expect(await resolve('membership', { membership_billing_intervals: ['yearly', 'monthly'] })).toEqual([
      monthly.id,
      yearly.id,
    ])
    expect(await resolve('membership', { product_statuses: ['active'] })).toEqual([monthly.id, prepaid.id])
    // Rule 3: the intersection with explicit ids, empty without being an error.
    expect(await resolve('membership', { product_statuses: ['retired'] }, [monthly.id, yearly.id])).toEqual([
      yearly.id,
    ])
    expect(await resolve('membership', { membership_purchase_types: ['benefit'] }, [monthly.id])).toEqual([])
    expect(await resolve('membership', {}, [prepaid.id])).toEqual([prepaid.id])
  })

  test('entry pass types by kind (one entry or more) and status', async () => {
    const single = await makeEntryPassType(t.db, { number_of_entries: 1 })
    const ten = await makeEntryPassType(t.db, { number_of_entries: 10, status: 'RET' })
    expect(await resolve('entry_pass', { entry_pass_kinds: ['single'] })).toEqual([single.id])
    expect(await resolve('entry_pass', { entry_pass_kinds: ['multi'] })).toEqual([ten.id])
    expect(await resolve('entry_pass', { entry_pass_kinds: ['multi', 'single'] })).toEqual([
      single.id,
      ten.id,
    ])
    expect(await resolve('entry_pass', { product_statuses: ['retired', 'draft'] })).toEqual([ten.id])
  })

  test('event types by schedule type and category, a category removed since still matching', async () => {
    const youth = await makeEventCategory(t.db)
    const fitness = await makeEventCategory(t.db, { name: 'Fitness' })
    const weekly = await makeEventType(t.db, { schedule_type: 'recurring' })
    const course = await makeEventType(t.db, { schedule_type: 'multi_part' })
    const open = await makeEventType(t.db, { schedule_type: 'rolling', status: 'RET' })
    await t.db
      .insertInto('event_type_categories')
      .values([
        { event_type_id: weekly.id, event_category_id: youth.id },
        { event_type_id: weekly.id, event_category_id: fitness.id },
        { event_type_id: course.id, event_category_id: youth.id },
      ])
      .execute()
    await t.db.updateTable('event_categories').set({ is_removed: 1 }).where('id', '=', youth.id).execute()
    expect(await resolve('event', { event_schedule_types: ['rolling', 'multi_part'] })).toEqual([
      course.id,
      open.id,
    ])
    expect(await resolve('event', { event_category_ids: [youth.id] })).toEqual([weekly.id, course.id])
    expect(await resolve('event', { event_category_ids: [fitness.id, 999] })).toEqual([weekly.id])
    expect(
      await resolve('event', { event_category_ids: [youth.id], event_schedule_types: ['recurring'] }),
    ).toEqual([weekly.id])
    expect(await resolve('event', { event_category_ids: [youth.id] }, [course.id, open.id])).toEqual([
      course.id,
    ])
    expect(await resolve('event', { product_statuses: ['retired'] })).toEqual([open.id])
  })

  test('voucher packs by status; a product retired since a query was saved leaves a series that selects active', async () => {
    const eventType = await makeEventType(t.db, { gym_id: t.seed.gym.id })
    const pack = await makeVoucherPack(t.db, { event_type_id: eventType.id, status: 'ACT' })
    expect(await resolve('voucher_pack', { product_statuses: ['active'] })).toEqual([pack.id])
    await t.db.updateTable('voucher_packs').set({ status: 'RET' }).where('id', '=', pack.id).execute()
    expect(await resolve('voucher_pack', { product_statuses: ['active'] })).toEqual([])
    expect(await resolve('voucher_pack', { product_statuses: ['retired'] })).toEqual([pack.id])
  })
})
