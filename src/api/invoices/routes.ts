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
        async ({ body, user, urls, set }) => {
          const id = await createInvoice(deps, body, { user })
          set.status = 201
          return serializeInvoice((await getInvoice(deps.db, id))!, urls)
        },
        {
          ...requires('can_manage_members'),
          ...docs({
            tag,
            summary: 'Record a sale: the invoice, its lines and what they grant, and its payments',
            body: named('InvoiceCreate', InvoiceCreate),
            ok: { status: 201, schema: named('Invoice', InvoiceOut) },
            errorBodies: {
              400: { description: 'The sale was refused; nothing was recorded', json: InvoiceErrors },
            },
          }),
        },
      ),
    )
