import { Elysia, type AnyElysia } from 'elysia'
import { createInvoice, invoiceQuery, quoteInvoice } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { docs, named } from '../../http/docs.ts'
import { defineFilters } from '../../http/filters.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { getInvoice, listInvoices } from './queries.ts'
import { InvoiceCreate, InvoiceErrors, InvoiceOut, InvoiceQuoteOut, invoiceFilterSpec } from './schema.ts'
import { serializeInvoice, serializeQuote } from './serializer.ts'

const tag = 'Invoices'

/** What a sale records and when it is refused, as the operation's description says it. */
const SALE_RULES = [
  [
    'Records a whole sale in one transaction, or nothing: the invoice, its discounts, its lines and',
    'what they grant, its payments. A refused sale answers 400 with every failing field; `line_items`',
    'and `payments` hold one object per item sent, `{}` for an item that passed, so a second line',
    'naming no entry pass type is',
    '`{"line_items": [{}, {"entry_pass_id": ["Invalid pk \\"99\\" - object does not exist."]}]}`; an',
    'item that is not an object is `{"non_field_errors": ["Invalid data. Expected a dictionary, but got',
    'str."]}` at its index. The answer (201) is the invoice with its totals, each line\'s discount',
    'share and tax, what each line granted and the `balance_due`.',
  ],
  [
    '**Lines** (`purchase_type`): a product line sells an active (`ACT`) product (`Only an active',
    "product can be sold.`) at the product's price, tax rate, revenue account code and name unless",
    'the line gives its own (`"tax_rate_id": null` sells it untaxed); fields of another purchase type',
    'on a line are ignored. `GEN` is retail (`unit_price` required). `MIN` starts a customer',
    "membership owned by the customer, billed at the sale's location, as `/api/customer-memberships/`",
    "starts one: `ACT`, or `IPP` while any payment of the sale is `PRO`; a recurring one's next bill",
    'date (`end_date`) is one interval after its start, as the sale pays the first. `EPA` issues one',
    "customer entry pass per `quantity` (`acquired_via` `purchase`, expiring as the type's",
    '`valid_days` say). `BOO` books the customer on an event that is not cancelled, one reservation',
    'per customer and event as at `/api/reservations/`; when the sale is posted the event must have a',
    "spot, be open for booking and of an active type, else the line's `event_id` is `The event is",
    "full.`, `Booking for this event has closed.` or `This event's type is retired.` (a booking sold",
    "answers no questions). `VPO` issues an event voucher of the pack's",
    'event type and uses; `EVV` a voucher of an event type with one use per `quantity`, never',
    'expiring. `GIF` sells a gift code (12 capitals and digits without look-alikes) that',
    '`POST /api/gifts/redeem/` turns into the product. `MRE` (`customer_membership_id`,',
    '`period_start`) renews a membership: only a recurring one',
    "(`Only a recurring membership can be renewed.`) owned by the sale's customer (another's is",
    '`Invalid pk`), `ACT` or `PAF` (`Only an active membership, or one whose last renewal failed, can',
    'be renewed.`). Paid (no payment `PRO`), its next bill date moves on one interval (`WEE` 7',
    "days, `BWK` 14, `FWK` 28; `MON`, `QUA`, `HYR`, `YRL` 1, 3, 6, 12 months on the start date's day",
    "of the month, or the month's last day) and a `PAF` one is `ACT` again; with a payment `PRO` it",
    'waits in `PPR` until the payments are settled. Two lines of one sale renewing one membership are',
    'refused at the second.',
  ],
  [
    '`customer_id` null (or left out) is an anonymous sale, refused when a line grants the customer',
    'something (`MIN`, `EPA`, `BOO`, `VPO`, `EVV`: `Choose a customer: memberships, entry passes,',
    'bookings and vouchers are sold to someone.`).',
  ],
  [
    '**Discounts** (`discount_codes`, any case) apply in the order given, each active and named once',
    '(`No active discount has the code "X".`, `The discount code "X" is given more than once.`): a',
    'percentage of what the earlier ones left, an amount at most what they left, so a sale never goes',
    'below zero. Their total is spread over the lines by gross: the lines up to each one take their',
    'exact share so far rounded half to even, less what the lines before took, so every share is',
    "within a cent of exact, never below zero or above its line's gross. Each line's tax is its net",
    "at its rate, rounded half to even; the invoice total is the lines' net plus tax. The invoice",
    "keeps each discount's code, names and amount as they were, and each line the rate it charged.",
  ],
  [
    '**Payments** may not come to more than the total',
    '(`{"payments": ["The payments (12.01) come to more than the invoice total (12.00)."]}`); less',
    'leaves a balance due. `amount_paid` counts complete payments (`COM`, `PRF`, `REF`), so a `PRO`',
    'payment is still due until `POST /api/payments/{id}/complete/`. `CRE` draws on one of the sale',
    "customer's credits (another's is `Invalid pk`), not removed (`This has been removed.`), not",
    "expired (usable through its expiry day in the organization's zone; `This expired on",
    "2026-11-30.`) and with the amount left on it, counting the sale's other payments from it",
    '(`Only 5.00 remains on this credit.`); its `amount_remaining` drops. Two sales drawing on one',
    "credit at once cannot both spend it: the second is refused at its payment's `amount`. `VOU`",
    "uses one use of one of the customer's event vouchers with a use left",
    '(`This voucher has no uses left.`), with `amount` 0.',
  ],
]
  .map((paragraph) => paragraph.join(' '))
  .join('\n\n')

/** What a client that sends a sale twice can count on, as the operation's description says it. */
const SALE_RETRIES = [
  [
    'A sale sent again by a retry after a lost answer, a double click or a second desk must not be',
    'recorded twice. Send an `Idempotency-Key` header (a UUID is usual) with each new sale, and the',
    'same key with every retry of it: the first request records the sale, and each retry with that',
    'key is answered 201 with that sale as it stands now, with the header `Idempotent-Replayed: true`,',
    'recording nothing more; the same key with a different request body is refused',
    '(`{"Idempotency-Key": ["This Idempotency-Key was already used for a different sale."]}`).',
    "A key is the staff user's own: another user's sale with the same key is another sale.",
  ],
  [
    'Without a key, a renewal (`MRE`) is still never paid twice: it pays one period, the one due',
    "(starting at the membership's next bill date, when that is today or past) unless the line names",
    'the next period with `period_start` to pay ahead. A second renewal of a period already paid is',
    'refused at its line, whether it arrives at the same instant or a minute later.',
  ],
]
  .map((paragraph) => paragraph.join(' '))
  .join('\n\n')

/** What a quote is and is not, as the operation's description says it. */
const QUOTE_RULES = [
  'Prices a sale without recording it: the same body as `POST /api/invoices/` (`payments` optional),',
  "checked and priced by the same code, answers 200 with what the invoice would be (each line's gross,",
  'discount share, tax and total; the discounts; the totals) and `left_to_pay`, what the payments',
  'given leave to pay, or the very 400 the sale would be refused with. It writes nothing: no invoice,',
  'no sequence number, no Idempotency-Key record (the header is ignored), no credit drawn on. A desk',
  'asks it as the sale is built, to show the total and to fill in the payments; the sale posted a',
  'moment later is checked again, so a product retired or a credit spent in between refuses it then.',
].join(' ')

/** The `Idempotency-Key` request header, added to the operation's documented parameters. */
function withIdempotencyKey<D extends { detail: { parameters?: unknown[] } }>(documented: D): D {
  const header = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: '1 to 255 visible ASCII characters naming this sale: its retries send the same key',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  }
  return {
    ...documented,
    detail: { ...documented.detail, parameters: [...(documented.detail.parameters ?? []), header] },
  }
}

/**
 * /api/invoices/: the sales recorded at the desk. POST posts a whole sale (its lines, what they
 * grant, its payments) or nothing; an invoice is never changed or deleted afterwards, only paid,
 * settled or refunded through its payments. Reading and selling both need can_manage_members.
 */
export const invoiceRoutes = (deps: Deps): AnyElysia =>
  new Elysia()
    .use(
      collectionRoutes(deps, {
        path: '/api/invoices',
        tag,
        noun: 'invoice',
        read: 'can_manage_members',
        write: 'can_manage_members',
        filters: defineFilters(invoiceFilterSpec),
        output: InvoiceOut,
        list: async ({ deps }, filters) => listInvoices(deps.db, await invoiceQuery(deps, filters)),
        get: ({ deps }, id) => getInvoice(deps.db, id),
        serialize: serializeInvoice,
        descriptions: {
          list: [
            'Newest first. `customer_id` and `location_id` are exact; `created_at_min` and',
            "`created_at_max` are whole days of the organization's zone, inclusive. An invoice is never",
            'changed or deleted (PUT, PATCH and DELETE are 405): it is paid, settled and refunded',
            'through its payments.',
          ].join(' '),
          read: 'One invoice with its lines and what they granted, its discounts, payments, refunds and totals.',
        },
      }),
    )
    .use(
      new Elysia()
        .use(authenticated(deps))
        .post(
          '/api/invoices/quote/',
          async ({ body, user }) => serializeQuote(await quoteInvoice(deps, body, { user })),
          {
            ...requires('can_manage_members'),
            ...docs({
              tag,
              summary: 'Price a sale without recording it',
              description: whoMay('can_manage_members', QUOTE_RULES),
              body: named('InvoiceCreate', InvoiceCreate),
              ok: { status: 200, schema: named('InvoiceQuote', InvoiceQuoteOut) },
              errorBodies: {
                400: { description: 'The sale would be refused; nothing was recorded', json: InvoiceErrors },
              },
            }),
          },
        ),
    )
    .use(
      // Not the collection helper's create: a sale's 400 holds each line's and payment's errors
      // at its index, which the helper's flat field errors cannot.
      new Elysia().use(authenticated(deps)).post(
        '/api/invoices/',
        async ({ body, user, urls, set, request }) => {
          const key = request.headers.get('idempotency-key')
          const { invoiceId, replayed } = await createInvoice(deps, body, { user }, key)
          set.status = 201
          if (replayed) set.headers['idempotent-replayed'] = 'true'
          return serializeInvoice((await getInvoice(deps.db, invoiceId))!, urls)
        },
        {
          ...requires('can_manage_members'),
          ...withIdempotencyKey(
            docs({
              tag,
              summary: 'Record a sale: the invoice, its lines and what they grant, and its payments',
              description: whoMay('can_manage_members', `${SALE_RULES}\n\n${SALE_RETRIES}`),
              body: named('InvoiceCreate', InvoiceCreate),
              ok: { status: 201, schema: named('Invoice', InvoiceOut) },
              errorBodies: {
                400: { description: 'The sale was refused; nothing was recorded', json: InvoiceErrors },
              },
            }),
          ),
        },
      ),
    )
