import { Elysia, t, type AnyElysia } from 'elysia'
import {
  completeProcessingPayment,
  failProcessingPayment,
  paymentOf,
  refundCompletePayment,
} from './actions.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named } from '../../http/docs.ts'
import type { Permission } from '../../http/permissions.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { RecordId } from '../../http/record-id.ts'
import { checkBody } from '../../http/validation.ts'
import { getInvoice } from '../invoices/queries.ts'
import { InvoiceOut } from '../invoices/schema.ts'
import { serializeInvoice } from '../invoices/serializer.ts'
import { NoBody, PaymentFail, PaymentRefund } from './schema.ts'

const tag = 'Payments'

/** What settling a processing payment does to its sale, which complete/ and fail/ both describe. */
const SETTLING = [
  'Only a processing (`PRO`) payment can be settled; any other is refused',
  '(`{"non_field_errors": ["Only a processing payment can be completed or failed."]}`). Completing',
  "the sale's last processing payment makes the memberships it started `ACT` and settles its",
  'renewals (the membership `ACT` again and its next bill date moved on one period); failing any',
  'of its payments leaves the memberships it started `IPP`, awaiting their initial payment, and',
  "makes its renewals' memberships `PAF`. Each status change has its history row, dated today in",
  "the organization's zone.",
].join(' ')

const COMPLETE_RULES = `The payment becomes \`COM\` and counts in the invoice's \`amount_paid\`. ${SETTLING}`

const FAIL_RULES = [
  "The payment becomes `FAI` with the optional `failure_message` (the processor's reason). It never",
  `counts in \`amount_paid\` or in revenue. ${SETTLING}`,
].join(' ')

const REFUND_RULES = [
  [
    'Gives back part or all of a complete (`COM`) or partly refunded (`PRF`) payment; any other is',
    'refused (`{"non_field_errors": ["Only a complete or partly refunded payment can be refunded."]}`).',
    '`amount` is above 0 (`Ensure this value is greater than 0.`) and at most what is not yet refunded',
    '(`Ensure this value is less than or equal to 25.00.`), so a voucher payment (amount 0) has nothing',
    'to refund; `processor_fee`, what the processor kept of the refund, is at most its amount.',
  ],
  [
    "The refund is dated now (net revenue counts it on its own day); the payment's `amount_refunded`",
    "grows and it becomes `PRF`, or `REF` once all of it is refunded. A credit (`CRE`) payment's",
    "refund goes back on the credit. The invoice's `amount_refunded` grows and its `balance_due` stays",
    'as it was. Two refunds of one payment sent at once are judged one after the other.',
  ],
]
  .map((paragraph) => paragraph.join(' '))
  .join('\n\n')

/**
 * The payment actions, POST /api/payments/<id>/<action>/: complete/ and fail/ settle a processing
 * payment (can_manage_members, as the desk that took it), refund/ gives money back
 * (can_access_reports). Each answers with the payment's invoice.
 */
export const paymentActionRoutes = (deps: Deps): AnyElysia => {
  const app = new Elysia().use(authenticated(deps))
  const actions = [
    {
      name: 'complete',
      rules: COMPLETE_RULES,
      summary: 'Complete a processing payment (PRO -> COM)',
      permission: 'can_manage_members',
      body: named('PaymentComplete', NoBody),
      run: (payment, body, actor) => completeProcessingPayment(deps, payment, checkBody(NoBody, body), actor),
    },
    {
      name: 'fail',
      rules: FAIL_RULES,
      summary: 'Fail a processing payment (PRO -> FAI) with the failure message',
      permission: 'can_manage_members',
      body: named('PaymentFail', PaymentFail),
      run: (payment, body, actor) =>
        failProcessingPayment(deps, payment, checkBody(PaymentFail, body), actor),
    },
    {
      name: 'refund',
      rules: REFUND_RULES,
      summary: 'Refund part or all of a complete payment',
      permission: 'can_access_reports',
      body: named('PaymentRefund', PaymentRefund),
      run: (payment, body, actor) =>
        refundCompletePayment(deps, payment, checkBody(PaymentRefund, body), actor),
    },
  ] satisfies {
    name: string
    rules: string
    summary: string
    permission: Permission
    body: unknown
    run: (
      payment: Awaited<ReturnType<typeof paymentOf>>,
      body: unknown,
      actor: { user: Parameters<typeof refundCompletePayment>[3]['user'] },
    ) => Promise<void>
  }[]
  for (const action of actions) {
    app.post(
      `/api/payments/:id/${action.name}/`,
      async ({ params, body, user, urls }) => {
        const payment = await paymentOf(deps, params.id)
        await action.run(payment, body, { user })
        return serializeInvoice((await getInvoice(deps.db, payment.invoice_id))!, urls)
      },
      {
        params: t.Object({ id: RecordId() }),
        ...requires(action.permission as Permission),
        ...docs({
          tag,
          summary: action.summary,
          description: whoMay(action.permission as Permission, action.rules),
          body: action.body,
          ok: { status: 200, schema: named('Invoice', InvoiceOut), description: "The payment's invoice" },
          errors: [400, 404],
          params: { id: "The payment's id" },
        }),
      },
    )
  }
  return app
}
