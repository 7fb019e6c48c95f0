import { organizationToday } from '../organization/queries.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { getPayment, listPayments } from './queries.ts'
import { paymentQuery, readPaymentFilters } from './rules.ts'
import { paymentFilterQuery, PaymentOut } from './schema.ts'
import { LISTED_PAYMENT_STATUSES } from '../../domain/sales.ts'
import { serializePayment } from './serializer.ts'

/** The list's order, figures and filters, as the operation's description says them. */
const LIST_RULES = [
  [
    'Lists `COM`, `PRO`, `FAI`, `PRF` and `REF` payments, newest `created_at` first, then the higher',
    'id; a pending (`PEN`) or cancelled (`CAN`) payment is never shown.',
  ],
  [
    "Each payment carries its invoice's figures as they bear on it: `tax_amount` is the invoice's tax",
    '× amount / invoice total, rounded half to even to cents; `line_items[].amount` is the line (tax',
    "included) × amount / invoice total, unrounded. `revenue_account_codes` gives each code its lines'",
    "share of what the invoice's lines with a code came to; a line sold without a code is left out, so",
    'the fractions add up to 1, and an invoice with no coded line has `{}`. Coded lines that came to',
    'nothing (all vouchers) share it equally among their codes.',
  ],
  [
    'Filters: an empty value means "not given"; a 400 lists every failing filter. `status_in` and',
    '`payment_method_in` name the first unknown code (`Select a valid choice. …`); `PEN` and `CAN` are',
    'valid codes but never listed, so asking only for them lists nothing. `amount_min`/`amount_max`',
    'take a decimal of at most two places (`Enter a number.` otherwise). `search` matches the invoice',
    "id as text, so `12` finds invoices 12, 112 and 120, and the customer's current names and email:",
    'a term of three or more characters ignores case in any script (`élodie` finds `Élodie`), a',
    'shorter one in ASCII letters only. `%`, `_`, `"`, `*` and `\\` are only text. A search of',
    'nothing but one- and two-character terms reads every invoice, so it answers more slowly on a',
    'long sales history.',
  ],
]
  .map((paragraph) => paragraph.join(' '))
  .join('\n\n')

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
    csv: { today: organizationToday },
    // The whole sales history's list on the reader (committed data, off the server's thread).
    list: async ({ deps }, filters) => listPayments(deps.reader, await paymentQuery(deps, filters)),
    get: ({ deps }, id) => getPayment(deps.db, id, LISTED_PAYMENT_STATUSES),
    descriptions: {
      list: LIST_RULES,
      read: 'One payment, as the list shows it; a pending or cancelled payment is 404 here too.',
    },
  })
