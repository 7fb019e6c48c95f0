import { RENEWABLE_STATUSES } from '../../../domain/membership-status.ts'
import { renewMembership } from '../../memberships/renew.ts'
import { MembershipChanged } from '../conflicts.ts'
import { saleMessages } from '../messages.ts'
import { getMembershipForRenewal, getMembershipTypeForSale } from '../reads.ts'
import { atMost, doesNotExist, required } from '../refusals.ts'
import type { GrantOf, LineKind } from './line-kind.ts'

/**
 * MRE: a renewal of the customer's recurring membership, charging its next bill: its billing
 * amount, at its type's tax rate and revenue account (a membership of a type no longer sold is
 * still renewed). It must be the customer's own (another customer's is reported as not existing,
 * as another customer's credit is), recurring, and in a status that can be renewed.
 *
 * A renewal pays one period, the one starting at the next bill date: periods are paid in order.
 * Without `period_start` only the period due is paid, one whose bill date is today or past, so a
 * sale sent twice renews once: the first moved the bill date past today, and the second finds the
 * period due already paid. Paying ahead names the period, which a repeat then names again, paid.
 */
export const renewalLine: LineKind<GrantOf<'MRE'>> = {
  async check(line, sale, refusals) {
    if ((line.quantity ?? 1) > 1) refusals.add('quantity', atMost(1))
    const field = 'customer_membership_id'
    const id = line.customer_membership_id
    if (id === undefined) return void refusals.add(field, required)
    const found = await getMembershipForRenewal(sale.db, id)
    const membership = found && found.owner_id === sale.customerId ? found : undefined
    if (!membership) return void refusals.add(field, doesNotExist(id))
    const type = (await getMembershipTypeForSale(sale.db, membership.membership_type_id))!
    if (type.purchase_type !== 'REC' || type.interval === '')
      return void refusals.add(field, saleMessages.notRecurring)
    if (!RENEWABLE_STATUSES.includes(membership.status))
      return void refusals.add(field, saleMessages.notRenewable)
    const nextBillDate = membership.end_date ?? membership.start_date
    const named = line.period_start
    if (named === undefined && nextBillDate > sale.today)
      return void refusals.add(field, saleMessages.paidAhead(nextBillDate))
    if (named !== undefined && named < nextBillDate)
      return void refusals.add('period_start', saleMessages.periodPaid(nextBillDate))
    if (named !== undefined && named > nextBillDate)
      return void refusals.add('period_start', saleMessages.periodNotNext(nextBillDate))
    return {
      product: {
        name: type.name,
        price_cents: membership.billing_amount_cents,
        tax_rate_id: type.tax_rate_id,
        revenue_account_code: type.revenue_account_code,
      },
      grant: {
        purchaseType: 'MRE',
        renewal: {
          id: membership.id,
          status: membership.status,
          start_date: membership.start_date,
          end_date: membership.end_date,
          interval: type.interval,
          membership_type_id: type.id,
          period_start: nextBillDate,
        },
      },
    }
  },
  /** The renewal moves the bill date on only from where the check read it, else the sale is refused. */
  async post(line, sale, insertLine) {
    const { renewal } = line
    const by = { today: sale.today, at: sale.at, changedById: sale.sale.staffUserId }
    if (!(await renewMembership(sale.trx, renewal, sale.processing ? 'processing' : 'paid', by)))
      throw new MembershipChanged(sale.index)
    await insertLine({
      membership_type_id: renewal.membership_type_id,
      customer_membership_id: renewal.id,
      period_start: renewal.period_start,
    })
  },
}
