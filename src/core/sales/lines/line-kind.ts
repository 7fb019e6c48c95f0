import type { Insertable } from 'kysely'
import type { Db } from '../../../db/connection.ts'
import type { InvoiceLineItemTable } from '../../../db/schema.ts'
import type { SaleTerms } from '../../../domain/products.ts'
import { doesNotExist, required, type Refusals } from '../refusals.ts'
import type { LineRequest } from '../request.ts'
import type { LineGrant, Sale, SaleLine } from '../sale.ts'
import { saleMessages } from '../messages.ts'

/*
 * What each purchase type of a line is: how a line of it is checked (the product it sells and what
 * it grants) and how it is posted (what it grants written beside the line). Each type has its own
 * file holding both halves, so what a line is checked for and what posting relies on stand
 * together; index.ts lists them and checks what every line shares (its quantity, price and tax).
 */

/** A product as a line sells it: its name (the line's default description) and its terms. */
export interface Product extends SaleTerms {
  name: string
}

/** Who a sale is for and on which of the organization's days, as each line is checked against. */
export interface LineContext {
  db: Db
  customerId: number | null
  /** The organization's today */
  today: string
}

/** What posting one line knows: the sale, its invoice, and the moment and day it is recorded. */
export interface PostContext {
  trx: Db
  sale: Sale
  invoiceId: number
  /** The line's index in the sale */
  index: number
  now: Date
  at: string
  /** The organization's today, in `zone` */
  today: string
  zone: string
  /** A payment is still at the terminal: what the sale starts or renews waits for it */
  processing: boolean
}

/** A line row's links to what the line granted; each is null unless its type sets it. */
export type LineLinks = Partial<
  Pick<
    Insertable<InvoiceLineItemTable>,
    | 'membership_type_id'
    | 'entry_pass_type_id'
    | 'event_id'
    | 'voucher_pack_id'
    | 'customer_membership_id'
    | 'reservation_id'
    | 'customer_event_voucher_id'
    | 'period_start'
  >
>

/** What a line of one purchase type grants. */
export type GrantOf<T extends LineGrant['purchaseType']> = Extract<LineGrant, { purchaseType: T }>

export interface LineKind<G extends LineGrant> {
  /**
   * The product the line sells and what it grants; undefined (with the line's refusals) when the
   * product cannot be sold on this line.
   */
  check(
    line: LineRequest,
    sale: LineContext,
    refusals: Refusals,
  ): Promise<{ product: Product; grant: G } | undefined>
  /**
   * Writes what the line grants and the line itself, through `insertLine` (which answers the line's
   * id), each in the order the other needs.
   */
  post(
    line: SaleLine & G,
    sale: PostContext,
    insertLine: (links: LineLinks) => Promise<number>,
  ): Promise<void>
}

/**
 * The product a line sells, looked up by its id field: undefined (with the line's refusal) when the
 * id is missing, names nothing, or names something that cannot be sold now (`refusal` says why).
 */
export async function lookUpProduct<P>(
  refusals: Refusals,
  field: string,
  id: number | undefined,
  get: (id: number) => Promise<P | undefined>,
  refusal: (product: P) => string | undefined,
): Promise<P | undefined> {
  if (id === undefined) return void refusals.add(field, required)
  const product = await get(id)
  if (!product) return void refusals.add(field, doesNotExist(id))
  const refused = refusal(product)
  if (refused) return void refusals.add(field, refused)
  return product
}

/** Only an active product (or event type) is sold. */
export const activeOnly = (product: { status: string }) =>
  product.status === 'ACT' ? undefined : saleMessages.notForSale
