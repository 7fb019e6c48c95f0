/*
 * Why a sale, or one part of it, is refused, in the engine's terms: the field a refusal is about
 * and what it says. The reasons every API words the same way (a field left out, an id naming
 * nothing, a number too large) are named by a code and worded by whoever answers the client; the
 * reasons of a sale alone carry their own message (messages.ts).
 */

export type Reason =
  | { code: 'required' }
  | { code: 'does_not_exist'; id: unknown }
  | { code: 'max'; limit: number }
  | { message: string }

/** Where in the request a refusal is: the sale itself, or one of its lines or payments by index. */
export type RefusalPlace = 'sale' | { list: 'line_items' | 'payments'; index: number }

export interface SaleRefusal {
  at: RefusalPlace
  field: string
  reason: Reason
}

export const required: Reason = { code: 'required' }
export const doesNotExist = (id: unknown): Reason => ({ code: 'does_not_exist', id })
export const atMost = (limit: number): Reason => ({ code: 'max', limit })
export const saying = (message: string): Reason => ({ message })

/** The refusals of one place of the request, in the order they were found. */
export class Refusals {
  private readonly fields = new Set<string>()

  constructor(
    private readonly at: RefusalPlace,
    private readonly all: SaleRefusal[],
  ) {}

  add(field: string, reason: Reason | string): void {
    this.fields.add(field)
    this.all.push({ at: this.at, field, reason: typeof reason === 'string' ? saying(reason) : reason })
  }

  has(field: string): boolean {
    return this.fields.has(field)
  }

  get any(): boolean {
    return this.fields.size > 0
  }
}
