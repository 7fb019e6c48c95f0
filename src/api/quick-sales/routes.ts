import { Elysia, type AnyElysia } from 'elysia'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, FieldErrors, named } from '../../http/docs.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { Type as t } from '@sinclair/typebox'
import { listQuickSales } from './queries.ts'
import { replaceQuickSaleList } from './rules.ts'
import { QuickSalesOut, QuickSalesReplace } from './schema.ts'
import { serializeQuickSales } from './serializer.ts'

const tag = 'Organization'

const REPLACE_RULES = [
  'Replaces the whole list: up to 8 buttons (`Ensure this field has no more than 8 elements.`), each',
  'a product by the purchase type that sells it (`MIN` a membership type, `EPA` an entry pass type,',
  '`VPO` a voucher pack) and its id, active when saved (`Only an active product can be sold.`;',
  'one that does not exist is `Invalid pk`), with a `label` of at most 40 characters (default the',
  "product's name, as it is when saved). A refused button is reported at its index",
  '(`{"quick_sales": [{}, {"product_id": ["Invalid pk \\"99\\" - object does not exist."]}]}`) and',
  'nothing changes. A product retired later keeps its button, which the desk shows as not for sale.',
].join(' ')

/**
 * /api/organization/quick-sales/: the products the desk's Sell screen offers as one-click buttons.
 * Any staff user reads them (the desk shows them); admins choose them.
 */
export const quickSaleRoutes = (deps: Deps): AnyElysia => {
  const ok = { status: 200, schema: named('QuickSales', QuickSalesOut) }
  const current = async () => serializeQuickSales(await listQuickSales(deps.db))
  return new Elysia({ prefix: '/api/organization/quick-sales' })
    .use(authenticated(deps))
    .get('/', current, {
      ...requires('staff'),
      ...docs({
        tag,
        summary: "Read the Sell screen's quick-sale buttons",
        description: whoMay(
          'staff',
          'The buttons in the order the Sell screen shows them; `[]` when none were chosen.',
        ),
        ok,
      }),
    })
    .put(
      '/',
      async ({ body }) => {
        await replaceQuickSaleList(deps, body)
        return current()
      },
      {
        ...requires('admin'),
        ...docs({
          tag,
          summary: "Replace the Sell screen's quick-sale buttons",
          description: whoMay('admin', REPLACE_RULES),
          body: named('QuickSalesReplace', QuickSalesReplace),
          ok,
          errorBodies: {
            400: {
              description: 'The list was refused; nothing changed',
              json: t.Record(t.String(), t.Union([t.Array(t.String()), t.Array(FieldErrors)]), {
                title: 'QuickSalesErrors',
              }),
            },
          },
        }),
      },
    )
}
