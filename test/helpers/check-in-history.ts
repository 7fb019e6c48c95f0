import { beforeEach, expect } from 'bun:test'
import { ORIGIN, START } from './app.ts'
import { makeCheckIn } from './check-in-factories.ts'
import { makeCustomer } from './customer-factories.ts'
import { useSeededApp, useStaff } from './seeded.ts'

/*
 * What the check-in history tests share: a seeded app, staff by role, two customers (Lynn Hill with
 * an email, Beth Rodden without), a check-in factory defaulting to Lynn at the seed gym at START,
 * and the whole record the API answers for such a check-in. Read the fields inside tests only.
 */

export const LIST = '/api/check-ins/'
export const one = (id: number) => `/api/check-ins/${id}/`
export const checkOutPath = (id: number) => `/api/check-ins/${id}/check-out/`
export const ofCustomer = (customerId: number) => `/api/customers/${customerId}/check-ins/`

/** Beth's customer fields in a record, over Lynn's defaults. */
export const bethFields = {
  customer_first_name: 'Beth',
  customer_last_name: 'Rodden',
  customer_birthday: '1980-05-06',
  customer_email: null,
}

export function useCheckInHistory() {
  const t = useSeededApp()
  const staff = useStaff(t, 'members', 'allButMembers')
  const h = {
    t,
    staff,
    lynn: 0,
    beth: 0,

    /** A check-in by Lynn at the seed gym at START unless `fields` say otherwise. */
    checkIn: (fields: Partial<Parameters<typeof makeCheckIn>[1]> = {}) =>
      makeCheckIn(t.db, { customer_id: h.lynn, gym_id: t.seed.gym.id, ...fields }),

    /** The whole record of `checkIn()`'s check-in (08:04:05 in Denver), with `fields` over it. */
    record(id: number, fields: Record<string, unknown> = {}) {
      const customerId = (fields.customer_id as number | undefined) ?? h.lynn
      const gymId = (fields.location_id as number | undefined) ?? t.seed.gym.id
      return {
        id,
        url: `${ORIGIN}/api/check-ins/${id}/`,
        customer_id: customerId,
        customer_url: `${ORIGIN}/api/customers/${customerId}/`,
        customer_first_name: 'Lynn',
        customer_last_name: 'Hill',
        customer_birthday: '1961-01-03',
        customer_email: 'lynn@example.com',
        check_in_datetime: '2026-11-22T08:04:05',
        check_out_datetime: null,
        visit_duration_minutes: 0,
        entry_method: 'MEM',
        entry_method_description: 'Monthly Adult',
        location_id: gymId,
        location_url: `${ORIGIN}/api/gyms/${gymId}/`,
        location_name: 'Boulder Barn Downtown',
        free_entry_reason: '',
        free_entry_granting_user_id: null,
        free_entry_granting_user_first_name: null,
        free_entry_granting_user_last_name: null,
        converted_from_free_entry: false,
        milestone_list: [],
        check_in_count: 1,
        created_at: START,
        updated_at: START,
        ...fields,
      }
    },

    /** The ids a can_manage_members user sees at `path?query`, in order. */
    async ids(query = '', path = LIST): Promise<number[]> {
      const res = await t.request('GET', `${path}?${query}`, { token: staff.members.token })
      expect(res.status).toBe(200)
      return res.body.results.map((r: { id: number }) => r.id)
    },
  }
  beforeEach(async () => {
    h.lynn = (await makeCustomer(t.db, { email: 'lynn@example.com' })).id
    h.beth = (
      await makeCustomer(t.db, { first_name: 'Beth', last_name: 'Rodden', birthday: '1980-05-06' })
    ).id
  })
  return h
}
