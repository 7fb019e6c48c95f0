import type { MetricDefinition } from './definition.ts'
import { newCustomerCount } from './new-customer-count.ts'
import { productSoldCount } from './product-sold-count.ts'
import { revenue } from './revenue.ts'

/** Every metric type the query knows, by the name a request gives in `type`. */
export const METRIC_TYPES: ReadonlyMap<string, MetricDefinition<any>> = new Map(
  [newCustomerCount, revenue, productSoldCount].map((definition) => [definition.type, definition]),
)
