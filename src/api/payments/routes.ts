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
import { requires } from '../../http/permissions.ts'
import { RecordId } from '../../http/record-id.ts'
import { checkBody } from '../../http/validation.ts'
import { getInvoice } from '../invoices/queries.ts'
import { InvoiceOut } from '../invoices/schema.ts'
import { serializeInvoice } from '../invoices/serializer.ts'
import { NoBody, PaymentFail, PaymentRefund } from './schema.ts'

const tag = 'Payments'

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
      summary: 'Complete a processing payment (PRO -> COM)',
      permission: 'can_manage_members',
      body: named('PaymentComplete', NoBody),
      run: (payment, body, actor) => completeProcessingPayment(deps, payment, checkBody(NoBody, body), actor),
    },
    {
      name: 'fail',
      summary: 'Fail a processing payment (PRO -> FAI) with the failure message',
      permission: 'can_manage_members',
      body: named('PaymentFail', PaymentFail),
      run: (payment, body, actor) =>
        failProcessingPayment(deps, payment, checkBody(PaymentFail, body), actor),
    },
    {
      name: 'refund',
      summary: 'Refund part or all of a complete payment',
      permission: 'can_access_reports',
      body: named('PaymentRefund', PaymentRefund),
      run: (payment, body, actor) =>
        refundCompletePayment(deps, payment, checkBody(PaymentRefund, body), actor),
    },
  ] satisfies {
    name: string
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
