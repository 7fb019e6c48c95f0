import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { getPayment, listPayments } from './queries.ts'
import { paymentQuery, readPaymentFilters } from './rules.ts'
import { paymentFilterQuery, PaymentOut } from './schema.ts'
import { LISTED_PAYMENT_STATUSES } from '../../domain/sales.ts'
import { serializePayment } from './serializer.ts'

/**
 * /api/payments/: the read side of the sales, newest first, each payment with its invoice's figures.
 * Pending and cancelled payments are never shown. Needs can_access_reports.
 */
export const paymentListRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/payments',
    tag: 'Payments',
    noun: 'payment',
    read: 'can_access_reports',
    write: 'can_access_reports',
    output: PaymentOut,
    serialize: serializePayment,
    filters: { query: paymentFilterQuery, parse: readPaymentFilters },
    // The whole sales history's list on the reader (committed data, off the server's thread).
    list: async ({ deps }, filters) => listPayments(deps.reader, await paymentQuery(deps, filters)),
    get: ({ deps }, id) => getPayment(deps.db, id, LISTED_PAYMENT_STATUSES),
  })
