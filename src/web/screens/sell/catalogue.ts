/**
 * What the Sell screen offers, read once as it opens: the active products of each kind, the active
 * tax rates and discounts, and the admin's quick-sale buttons.
 */
import { api, query } from '../../api.ts'
import type { Credit, Page } from '../../types.ts'
import type { components } from '../../api-schema.ts'

type Schemas = components['schemas']

/** A membership type, entry pass type or voucher pack, as its collection lists it. */
export type Product = Pick<
  Schemas['MembershipType'] | Schemas['EntryPassType'] | Schemas['VoucherPack'],
  'id' | 'name' | 'price'
>

export type TaxRate = Schemas['TaxRate']

export type Discount = Schemas['Discount']

/** A button of the quick-sale row, as the admin chose it. */
export type QuickSale = Schemas['QuickSales']['quick_sales'][number]

/** A tax rate by its name and percentage: `Sales tax 8.25%`. */
export const taxRateLabel = (rate: TaxRate): string =>
  `${rate.name} ${Math.round(Number(rate.rate) * 10000) / 100}%`

/** A discount as the list offers it: its name (else its code) and what it takes off. */
export function discountLabel(discount: Discount): string {
  const name = discount.display_name || discount.name || discount.code
  const off =
    discount.percent_off !== null ? `${Number(discount.percent_off)}% off` : `${discount.amount_off} off`
  return name === discount.code ? `${name}, ${off}` : `${name} (${discount.code}), ${off}`
}

/** What the desk sells from the catalogue, each kind by the line purchase type that sells it. */
export const PRODUCT_KINDS = [
  {
    purchaseType: 'MIN',
    label: 'Memberships',
    singular: 'Membership',
    path: '/api/memberships/',
    idField: 'membership_id',
  },
  {
    purchaseType: 'EPA',
    label: 'Entry passes',
    singular: 'Entry pass',
    path: '/api/entry-passes/',
    idField: 'entry_pass_id',
  },
  {
    purchaseType: 'VPO',
    label: 'Voucher packs',
    singular: 'Voucher pack',
    path: '/api/voucher-packs/',
    idField: 'voucher_pack_id',
  },
] as const

export type ProductKind = (typeof PRODUCT_KINDS)[number]

export interface Catalogue {
  products: Record<ProductKind['purchaseType'], Product[]>
  taxRates: TaxRate[]
  discounts: Discount[]
  quickSales: QuickSale[]
}

/** More than a gym sells at once; the lists are read whole. */
const ALL = 100

/** What can be sold now. */
export async function loadCatalogue(): Promise<Catalogue> {
  const active = query({ status: 'ACT', page_size: ALL })
  const [products, taxRates, discounts, quickSales] = await Promise.all([
    Promise.all(PRODUCT_KINDS.map((kind) => api<Page<Product>>('GET', `${kind.path}${active}`))),
    api<Page<TaxRate>>('GET', `/api/tax-rates/${query({ is_active: true, page_size: ALL })}`),
    api<Page<Discount>>('GET', `/api/discounts/${query({ is_active: true, page_size: ALL })}`),
    api<Schemas['QuickSales']>('GET', '/api/organization/quick-sales/'),
  ])
  const [memberships, passes, packs] = products.map((page) => page.results)
  return {
    products: { MIN: memberships!, EPA: passes!, VPO: packs! },
    taxRates: taxRates.results,
    discounts: discounts.results,
    quickSales: quickSales.quick_sales,
  }
}

/** The kind and active product a quick-sale button names; undefined when it is not for sale now. */
export function quickSaleProduct(catalogue: Catalogue, button: QuickSale) {
  const kind = PRODUCT_KINDS.find((k) => k.purchaseType === button.purchase_type)
  const product = kind && catalogue.products[kind.purchaseType].find((p) => p.id === button.product_id)
  return kind && product ? { kind, product } : undefined
}

/** The customer's credits that can pay now: not removed, not expired, something left on them. */
export async function usableCredits(customerId: number): Promise<Credit[]> {
  const credits = await api<Page<Credit>>(
    'GET',
    `/api/customers/${customerId}/credits/${query({ page_size: ALL })}`,
  )
  return credits.results.filter((c) => !c.is_removed && !c.is_expired && c.amount_remaining > 0)
}
