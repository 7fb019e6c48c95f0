import type { Calendar } from './calendar.ts'
import { type DemoContext, stream } from './context.ts'
import type { Person } from './customers.ts'
import { openingDay } from './organization.ts'
import type { Catalog, DemoDiscount, DemoRetailItem } from './products.ts'
import type { Random } from './random.ts'
import { deskMs, deskStaffAt, type Ledger, type SaleLine } from './sales-ledger.ts'
import type { Payments } from './sales-payments.ts'

/**
 * Over-the-counter sales at each gym every day since it opened: rentals, chalk, tape, drinks and
 * clothing, one to three items a sale. Busier at weekends and as the gym grew; about a quarter
 * are to a customer the desk looks up (some with a discount code), the rest anonymous.
 */
export function sellRetail(
  ctx: DemoContext,
  catalog: Catalog,
  people: readonly Person[],
  ledger: Ledger,
  payments: Payments,
): void {
  const rng = stream(ctx, 'sales-retail')
  const { cal } = ctx
  const regulars = new Regulars(people)
  const shelf = new Shelf(catalog)
  const discounts = new DiscountCodes(catalog, cal)
  for (const gym of ctx.gyms) {
    const opened = openingDay(cal, gym.index)
    const staff = deskStaffAt(ctx, gym.id)
    for (let day = opened; day <= cal.today; day++) {
      const grown = 0.7 + (0.3 * (day - opened)) / Math.max(1, cal.today - opened)
      const weekday = cal.weekday(day)
      const mean = ctx.profile.retailSalesPerGymDay * grown * (weekday === 0 || weekday === 6 ? 1.4 : 0.9)
      const count = Math.floor(mean * (0.75 + 0.5 * rng.next()) + rng.next())
      for (let n = 0; n < count; n++) {
        // Today's sales so far only.
        const atMs = deskMs(rng, cal, day)
        if (atMs === null) continue
        const customer = rng.chance(0.25) ? regulars.on(rng, day) : null
        const sale = ledger.record({
          atMs,
          day,
          customerId: customer?.id ?? null,
          gymId: gym.id,
          staffUserId: rng.pick(staff),
          description: 'Front desk',
          lines: shelf.basket(rng, rng.weighted(BASKET_SIZES)),
          discounts: customer ? discounts.draw(rng, day) : undefined,
        })
        payments.settleAtDesk(sale, atMs, day)
      }
    }
  }
}

const BASKET_SIZES = [
  [1, 80],
  [2, 15],
  [3, 5],
] as const

/** The retail items, drawn by how often each sells. */
export class Shelf {
  private readonly choices: (readonly [DemoRetailItem, number])[]

  constructor(catalog: Catalog) {
    this.choices = catalog.retail.map((item) => [item, item.weight] as const)
  }

  /** One line: an item, usually one of it, a few of the small things now and then. */
  line(rng: Random): SaleLine {
    const item = rng.weighted(this.choices)
    const quantity = item.most > 1 && rng.chance(0.3) ? rng.int(2, item.most) : 1
    return { purchaseType: 'GEN', terms: item.terms, quantity }
  }

  /** `size` lines of different items. */
  basket(rng: Random, size: number): SaleLine[] {
    const lines: SaleLine[] = []
    while (lines.length < size) {
      const line = this.line(rng)
      if (!lines.some((other) => other.terms === line.terms)) lines.push(line)
    }
    return lines
  }
}

/** Customers the desk can look up on a day: adults whose record existed by then. */
export class Regulars {
  private readonly byJoined: Person[]

  constructor(people: readonly Person[]) {
    this.byJoined = people.filter((p) => !p.isKid).sort((a, b) => a.createdDay - b.createdDay)
  }

  /** A customer who existed on `day`, or null before the first one. */
  on(rng: Random, day: number): Person | null {
    let lo = 0
    let hi = this.byJoined.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.byJoined[mid]!.createdDay <= day) lo = mid + 1
      else hi = mid
    }
    return lo === 0 ? null : this.byJoined[Math.floor(rng.next() * lo)]!
  }
}

/**
 * The discount codes a customer gives at the desk: on about one sale in sixteen, now and then two
 * stacked. The summer sale ran June to August two years ago and is inactive since.
 */
export class DiscountCodes {
  private readonly active: DemoDiscount[]
  private readonly summer: DemoDiscount | undefined
  private readonly summerFrom: string
  private readonly summerTo: string

  constructor(
    catalog: Catalog,
    private readonly cal: Calendar,
  ) {
    this.active = catalog.discounts.filter((d) => d.isActive)
    this.summer = catalog.discounts.find((d) => !d.isActive)
    const year = Number(cal.date(cal.today).slice(0, 4)) - 2
    this.summerFrom = `${year}-06-01`
    this.summerTo = `${year}-08-31`
  }

  /** The codes given at a sale, if any. */
  draw(rng: Random, day: number): DemoDiscount[] | undefined {
    if (!rng.chance(0.06)) return undefined
    const date = this.cal.date(day)
    const first =
      this.summer && date >= this.summerFrom && date <= this.summerTo && rng.chance(0.6)
        ? this.summer
        : rng.pick(this.active)
    if (!rng.chance(0.08)) return [first]
    const second = rng.pick(this.active)
    return second === first ? [first] : [first, second]
  }
}
