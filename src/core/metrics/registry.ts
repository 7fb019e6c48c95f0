import { checkInCount } from './check-in-count.ts'
import { customerRetention } from './customer-retention.ts'
import type { MetricDefinition } from './definition.ts'
import { firstCheckInConversion } from './first-check-in-conversion.ts'
import { memberChurn } from './member-churn.ts'
import { membershipCount } from './membership-count.ts'
import { membershipReferralCount } from './membership-referral-count.ts'
import { membershipStatusChangeCount } from './membership-status-change-count.ts'
import { newCustomerCount } from './new-customer-count.ts'
import { productConversion } from './product-conversion.ts'
import { productSoldCount } from './product-sold-count.ts'
import { revenue } from './revenue.ts'

/** Every metric type the query knows, by the name a request gives in `type`, in the reference's order. */
const DEFINITIONS: MetricDefinition<any>[] = [
  revenue,
  checkInCount,
  newCustomerCount,
  productSoldCount,
  membershipCount,
  customerRetention,
  productConversion,
  firstCheckInConversion,
  memberChurn,
  membershipReferralCount,
  membershipStatusChangeCount,
]

export const METRIC_TYPES: ReadonlyMap<string, MetricDefinition<any>> = new Map(
  DEFINITIONS.map((definition) => [definition.type, definition]),
)
