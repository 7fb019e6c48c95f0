import { Elysia, type AnyElysia } from 'elysia'
import { createInvoice, invoiceQuery } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { docs, named } from '../../http/docs.ts'
import { defineFilters } from '../../http/filters.ts'
import { requires } from '../../http/permissions.ts'
import { getInvoice, listInvoices } from './queries.ts'
import { InvoiceCreate, InvoiceErrors, InvoiceOut, invoiceFilterSpec } from './schema.ts'
import { serializeInvoice } from './serializer.ts'

const tag = 'Invoices'

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
      }),
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
              description: SALE_RETRIES,
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
