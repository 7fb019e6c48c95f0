import { Fragment } from 'preact'
import { useFocusOnShow } from '../../focus.ts'
import { fullName } from '../../format.ts'
import { dateTimeInZone, paymentMethodName, type Invoice } from './sale-draft.ts'
import type { Customer, Gym } from '../../types.ts'

/**
 * The receipt of a posted sale, every amount as the API answered it. It takes the focus when it
 * shows, so a keyboard user goes on from it (Tab reaches Print and New sale).
 */
export function Receipt({
  invoice,
  customer,
  organization,
  gym,
}: {
  invoice: Invoice
  customer: Customer | null
  organization: string
  gym: Gym
}) {
  const heading = useFocusOnShow<HTMLHeadingElement>()
  const discounted = invoice.discounts.length > 0
  return (
    <article class="receipt" aria-labelledby="receipt-heading">
      <h2 id="receipt-heading" ref={heading} tabIndex={-1}>
        {organization}
      </h2>
      <p>{invoice.location_name}</p>
      <p>{dateTimeInZone(invoice.created_at, gym.time_zone)}</p>
      <p>Invoice {invoice.id}</p>
      <p>Customer: {customer === null ? 'none' : fullName(customer.first_name, customer.last_name)}</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Qty</th>
            <th scope="col">Price</th>
            {discounted && <th scope="col">Discount</th>}
            <th scope="col">Amount</th>
            <th scope="col">Tax</th>
          </tr>
        </thead>
        <tbody>
          {invoice.line_items.map((line) => (
            <tr key={line.id}>
              <td>{line.description}</td>
              <td>{line.quantity}</td>
              <td>{line.unit_price}</td>
              {discounted && <td>{line.discount_amount}</td>}
              <td>{line.net_amount}</td>
              <td>{line.tax_amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl class="totals">
        <dt>Subtotal</dt>
        <dd>{invoice.subtotal}</dd>
        {invoice.discounts.map((discount) => (
          <Fragment key={discount.discount_id}>
            <dt>Discount {discount.display_name === '' ? discount.code : discount.display_name}</dt>
            <dd>-{discount.amount}</dd>
          </Fragment>
        ))}
        <dt>Tax</dt>
        <dd>{invoice.tax_total}</dd>
        <dt class="total">Total</dt>
        <dd class="total">{invoice.total}</dd>
        {invoice.payments.map((payment) => (
          <Fragment key={payment.id}>
            <dt>Paid by {paymentMethodName(payment)}</dt>
            <dd>{payment.amount}</dd>
          </Fragment>
        ))}
        <dt>Balance due</dt>
        <dd>{invoice.balance_due}</dd>
      </dl>
    </article>
  )
}
