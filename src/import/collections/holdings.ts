import { type Collection, type Rec, cents, each, flag, put, stamps } from './writing.ts'

/** Customers' memberships and entry passes. */
export const HOLDINGS: Collection[] = [
  {
    name: 'customer memberships',
    path: '/api/customer-memberships/',
    write: each(async (trx, r) => {
      const written = await put(trx, 'customer_memberships', {
        id: r.id,
        membership_type_id: r.membership_id,
        owner_id: r.owner_id,
        status: r.status,
        start_date: r.start_date,
        end_date: r.end_date ?? null,
        billing_location_id: r.billing_location_id ?? null,
        has_payment_method: flag(r.has_payment_method),
        is_pending_staff_approval: flag(r.is_pending_staff_approval),
        billing_amount_cents: cents(r.billing_amount),
        referring_customer_id: r.referring_customer_id ?? null,
        ...stamps(r),
      })
      if (!written) return false
      // Members and status changes have no id of their own in the API: they get new ones here.
      for (const member of (r.members ?? []) as Rec[]) {
        const row = await trx
          .insertInto('membership_members')
          .values({
            customer_membership_id: r.id,
            customer_id: member.customer_id,
            is_frozen: flag(member.is_frozen),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        for (const addOn of (member.add_ons ?? []) as Rec[])
          await put(trx, 'membership_member_add_ons', {
            membership_member_id: row.id,
            add_on_id: String(addOn.id),
          })
      }
      for (const change of (r.status_history ?? []) as Rec[])
        await trx
          .insertInto('membership_status_changes')
          .values({
            customer_membership_id: r.id,
            member_customer_id: change.member_customer_id ?? null,
            from_status: change.from_status ?? null,
            to_status: change.to_status,
            changed_on: change.changed_on,
            changed_by_id: null,
            created_at: `${change.changed_on}T00:00:00.000Z`,
          })
          .execute()
      return true
    }),
  },
  {
    name: 'customer entry passes',
    path: '/api/customer-entry-passes/',
    write: each(async (trx, r) =>
      put(trx, 'customer_entry_passes', {
        id: r.id,
        entry_pass_type_id: r.entry_pass_id,
        owner_id: r.owner_id,
        purchaser_id: r.purchaser_id ?? null,
        entries_total: r.entries_total,
        entries_remaining: r.entries_remaining,
        expiry_date: r.expiry_date ?? null,
        acquired_via: r.acquired_via,
        ...stamps(r),
      }),
    ),
  },
]
