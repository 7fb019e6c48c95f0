import { localDate, localTimeOfDay } from '../../lib/local-time.ts'
import { paymentDetails, type PaymentDetails } from '../../domain/payment-details.ts'
import {
  type Collection,
  type Db,
  type Rec,
  cents,
  each,
  flag,
  put,
  stamps,
  units,
  utcOf,
} from './writing.ts'

/** Invoices with their payments and refunds, check-ins, and the quick-sale buttons. */
export const CHECK_INS_AND_SALES: Collection[] = [
  {
    name: 'invoices',
    path: '/api/invoices/',
    write: each(async (trx, r) => {
      const written = await put(trx, 'invoices', {
        id: r.id,
        customer_id: r.customer_id ?? null,
        gym_id: r.location_id,
        staff_user_id: r.staff_user_id ?? null,
        description: r.description ?? '',
        ...stamps(r),
      })
      if (!written) return false
      for (const [position, line] of ((r.line_items ?? []) as Rec[]).entries()) {
        await put(trx, 'invoice_line_items', {
          id: line.id,
          invoice_id: r.id,
          position,
          purchase_type: line.purchase_type,
          description: line.description ?? '',
          quantity: line.quantity,
          unit_price_cents: cents(line.unit_price),
          discount_cents: cents(line.discount_amount),
          net_cents: cents(line.net_amount),
          tax_rate_id: line.tax_rate_id ?? null,
          tax_rate_basis_points: units(line.tax_rate ?? 0, 4),
          tax_cents: cents(line.tax_amount),
          revenue_account_code: line.revenue_account_code ?? '',
          membership_type_id: line.membership_id ?? null,
          entry_pass_type_id: line.entry_pass_id ?? null,
          event_id: line.event_id ?? null,
          voucher_pack_id: line.voucher_pack_id ?? null,
          customer_membership_id: line.customer_membership_id ?? null,
          reservation_id: line.reservation_id ?? null,
          customer_event_voucher_id: line.customer_event_voucher_id ?? null,
          period_start: line.period_start ?? null,
        })
        // The passes a line granted name their invoice only here.
        const passIds = (line.customer_entry_pass_ids ?? []) as number[]
        if (passIds.length > 0)
          await trx
            .updateTable('customer_entry_passes')
            .set({ invoice_id: r.id })
            .where('id', 'in', passIds)
            .execute()
      }
      for (const [position, discount] of ((r.discounts ?? []) as Rec[]).entries())
        await trx
          .insertInto('invoice_discounts')
          .values({
            invoice_id: r.id,
            position,
            discount_id: discount.discount_id,
            code: discount.code,
            name: discount.name ?? '',
            display_name: discount.display_name ?? '',
            association_id: discount.association_id ?? null,
            amount_cents: cents(discount.amount),
          })
          .execute()
      for (const payment of (r.payments ?? []) as Rec[])
        await put(trx, 'payments', {
          id: payment.id,
          invoice_id: r.id,
          status: payment.status,
          payment_type: payment.payment_type,
          payment_method_type: payment.payment_method_type ?? 'NA',
          amount_cents: cents(payment.amount),
          amount_refunded_cents: cents(payment.amount_refunded ?? 0),
          processor_fee_cents: cents(payment.processor_fee ?? 0),
          failure_message: payment.failure_message ?? '',
          credit_id: payment.credit_id ?? null,
          voucher_id: payment.voucher_id ?? null,
          ...paymentDetails(payment as PaymentDetails),
          created_at: payment.created_at,
          updated_at: payment.updated_at,
        })
      for (const refund of (r.refunds ?? []) as Rec[])
        await put(trx, 'refunds', {
          id: refund.id,
          payment_id: refund.payment_id,
          amount_cents: cents(refund.amount),
          processor_fee_cents: cents(refund.processor_fee ?? 0),
          reason: refund.reason ?? '',
          staff_user_id: null,
          created_at: refund.created_at,
        })
      return true
    }),
  },
  {
    name: 'check-ins',
    path: '/api/check-ins/',
    write: each(async (trx, r, _parent, context) => {
      const zone = context.gymZones.get(r.location_id) ?? 'UTC'
      const at = new Date(r.created_at)
      return put(trx, 'check_ins', {
        id: r.id,
        customer_id: r.customer_id,
        gym_id: r.location_id,
        entry_method: r.entry_method,
        entry_method_description: r.entry_method_description ?? '',
        free_entry_reason: r.free_entry_reason ?? '',
        free_entry_granting_user_id: r.free_entry_granting_user_id ?? null,
        converted_from_free_entry: flag(r.converted_from_free_entry),
        milestone_list: JSON.stringify(r.milestone_list ?? []),
        check_in_count: r.check_in_count ?? null,
        local_date: localDate(at, zone),
        local_time: localTimeOfDay(at, zone),
        check_out_at: r.check_out_datetime == null ? null : utcOf(r.check_out_datetime, zone),
        ...stamps(r),
      })
    }),
  },
  {
    name: 'quick sales',
    path: '/api/organization/quick-sales/',
    single: true,
    write: async (trx, records) => {
      let written = 0
      for (const [position, sale] of ((records[0]?.quick_sales ?? []) as Rec[]).entries())
        if (
          await put(trx, 'quick_sales', {
            position,
            purchase_type: sale.purchase_type,
            product_id: sale.product_id,
            label: sale.label,
          })
        )
          written++
      return written
    },
  },
]

/**
 * What the collections leave behind that is the box's own to keep: each customer's count of
 * check-ins (the door's milestones count on from it), worked out once every check-in is in.
 */
export async function settleDerivedColumns(db: Db): Promise<void> {
  await db
    .updateTable('customers')
    .set((eb) => ({
      check_in_count: eb
        .selectFrom('check_ins')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('check_ins.customer_id', '=', 'customers.id'),
    }))
    .execute()
}
