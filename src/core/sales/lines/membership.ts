import { checkMembers } from '../../memberships/members.ts'
import { startMembership } from '../../memberships/start.ts'
import { membershipGranted } from '../grants.ts'
import { getMembershipTypeForSale } from '../reads.ts'
import { atMost, doesNotExist, required, type Refusals } from '../refusals.ts'
import { activeOnly, lookUpProduct, type GrantOf, type LineContext, type LineKind } from './line-kind.ts'

/** An active membership type named by `field`, as a MIN line or a gift sells it. */
export const sellableMembershipType = (sale: LineContext, refusals: Refusals, field: string, id?: number) =>
  lookUpProduct(refusals, field, id, (id) => getMembershipTypeForSale(sale.db, id), activeOnly)

/**
 * MIN: a membership of an active type started for the customer on `start_date`; the customer is
 * its owner, and `member_ids` name whom it covers as /api/customer-memberships/ takes them. A
 * membership paid with a payment still at the terminal waits for it (IPP).
 */
export const membershipLine: LineKind<GrantOf<'MIN'>> = {
  async check(line, sale, refusals) {
    if ((line.quantity ?? 1) > 1) refusals.add('quantity', atMost(1))
    if (line.start_date === undefined) refusals.add('start_date', required)
    const type = await sellableMembershipType(sale, refusals, 'membership_id', line.membership_id)
    const members = await checkMembers(
      sale.db,
      {
        sent: line.member_ids,
        ownerId: sale.customerId ?? undefined,
        isGroup: type === undefined ? undefined : type.is_group === 1,
      },
      doesNotExist,
    )
    for (const refusal of members.refusals) refusals.add('member_ids', refusal)
    if (!type) return undefined
    return {
      product: type,
      grant: {
        purchaseType: 'MIN',
        membershipType: type,
        startDate: line.start_date!,
        memberIds: members.ids,
      },
    }
  },
  async post(line, sale, insertLine) {
    const customerId = sale.sale.customerId
    const membershipId =
      customerId === null
        ? null
        : await startMembership(sale.trx, {
            row: membershipGranted(
              line.membershipType,
              { customerId, staffUserId: sale.sale.staffUserId, now: sale.now, zone: sale.zone },
              {
                startDate: line.startDate,
                status: sale.processing ? 'IPP' : 'ACT',
                billingLocationId: sale.sale.gymId,
              },
            ),
            memberIds: line.memberIds ?? [customerId],
            addOnIds: [],
            today: sale.today,
            changedById: sale.sale.staffUserId,
          })
    await insertLine({ membership_type_id: line.membershipType.id, customer_membership_id: membershipId })
  },
}
