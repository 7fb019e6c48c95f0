import type { MetricDefinition } from './definition.ts'
import { memberChurn } from './member-churn.ts'
import { membershipReferralCount } from './membership-referral-count.ts'
import { membershipStatusChangeCount } from './membership-status-change-count.ts'
import { newCustomerCount } from './new-customer-count.ts'

/** Every metric type the query knows, by the name a request gives in `type`. */
export const METRIC_TYPES: ReadonlyMap<string, MetricDefinition<any>> = new Map(
  [newCustomerCount, memberChurn, membershipReferralCount, membershipStatusChangeCount].map((definition) => [
    definition.type,
    definition,
  ]),
)
