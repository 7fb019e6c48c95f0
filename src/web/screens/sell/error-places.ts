/**
 * Where a refused sale's messages show, and in which words. The API answers a refusal with DRF's
 * field errors (`{"line_items": [{}, {"unit_price": ["A valid number is required."]}]}`); each
 * path (`line_items[1].unit_price`, `payments[0].amount`) is mapped here to the part of the form it
 * is about and said as a person would say it, with no field names.
 */

/** A part of the form that shows messages. */
export type Place =
  | 'customer'
  | 'discount'
  /** The sale's lines as a whole */
  | 'lines'
  /** One line, by its key in the draft */
  | `line:${number}`
  /** The payments as a whole */
  | 'payments'
  /** One payment, by its index in the draft */
  | `payment:${number}`
  /** The sale itself: shown beside "Post the sale" */
  | 'sale'

/** Each refused path with its message: `line_items[1].unit_price`, `payments`. */
export function errorPaths(body: unknown, prefix = ''): Array<[string, string]> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return []
  return Object.entries(body).flatMap(([field, value]) => {
    const path = prefix + field
    if (!Array.isArray(value)) return []
    return value.flatMap((item, index): Array<[string, string]> =>
      typeof item === 'string' ? [[path, item]] : errorPaths(item, `${path}[${index}].`),
    )
  })
}

/**
 * What each field of the request (a sale's, a quick-sale button's) is called on the form, to begin
 * a message with.
 */
const FIELD_NAMES: Record<string, string> = {
  customer_id: 'The customer',
  location_id: "The desk's gym",
  discount_codes: 'The discount',
  quantity: 'The quantity',
  unit_price: 'The price',
  start_date: 'The start date',
  description: 'The name',
  tax_rate_id: 'The tax rate',
  purchase_type: 'This product',
  membership_id: 'This product',
  entry_pass_id: 'This product',
  voucher_pack_id: 'This product',
  amount: 'The amount',
  payment_method_type: 'The method',
  payment_type: 'The method',
  credit_id: 'The credit',
  product_id: 'This product',
  label: 'The label',
}

/**
 * DRF's usual words, said of the field they are about: `[pattern, what follows the field's name]`.
 * A message not here is the API's own sentence for a sale, already in plain words.
 */
const PLAIN_WORDS: Array<[RegExp, (match: RegExpExecArray) => string]> = [
  [/^This field is required\.$/, () => 'is needed.'],
  [/^This field may not be (blank|null)\.$/, () => 'is needed.'],
  [/^A valid integer is required\.$/, () => 'must be a whole number.'],
  [/^A valid number is required\.$/, () => 'must be an amount, such as 12.50.'],
  [
    /^Ensure that there are no more than (\d+) decimal places\.$/,
    (m) => `can have at most ${m[1]} decimal places.`,
  ],
  [/^Ensure that there are no more than \d+ digits/, () => 'is too large.'],
  [/^Ensure this value is greater than or equal to (.+)\.$/, (m) => `must be at least ${m[1]}.`],
  [/^Ensure this value is less than or equal to (.+)\.$/, (m) => `must be at most ${m[1]}.`],
  [/^Ensure this field has no more than (\d+) characters\.$/, (m) => `can be at most ${m[1]} characters.`],
  [/^Invalid pk ".*" - object does not exist\.$/, () => 'is no longer there: choose another.'],
  [/^".*" is not a valid choice\.$/, () => 'is not one of the choices.'],
  [/^Date has wrong format/, () => 'must be a date.'],
  [/^Invalid data\. Expected a dictionary/, () => 'could not be read.'],
]

/** A message as the desk shows it at the field `field` names. */
export function plainWords(field: string, message: string): string {
  for (const [pattern, words] of PLAIN_WORDS) {
    const match = pattern.exec(message)
    if (match) return `${FIELD_NAMES[field] ?? 'This'} ${words(match)}`
  }
  return message
}

/**
 * The part of the form a refused path is about: the sale's own fields, a line (`line_items[1]`,
 * by the key of the line sent at that index) or a payment (`payments[0]`, by the index in the
 * draft of the payment sent there).
 */
export function placeOf(path: string, lineKeys: readonly number[], paymentIndexes: readonly number[]): Place {
  const item = /^(line_items|payments)\[(\d+)\]\./.exec(path)
  if (item) {
    const index = Number(item[2])
    if (item[1] === 'line_items' && lineKeys[index] !== undefined) return `line:${lineKeys[index]}`
    if (item[1] === 'payments' && paymentIndexes[index] !== undefined)
      return `payment:${paymentIndexes[index]}`
    return 'sale'
  }
  if (path === 'customer_id') return 'customer'
  if (path === 'discount_codes') return 'discount'
  if (path === 'line_items') return 'lines'
  if (path === 'payments') return 'payments'
  return 'sale'
}

/** A refused sale's messages by the part of the form that shows them, in plain words. */
export function placeErrors(
  body: unknown,
  lineKeys: readonly number[],
  paymentIndexes: readonly number[],
): Map<Place, string[]> {
  const placed = new Map<Place, string[]>()
  for (const [path, message] of errorPaths(body)) {
    const place = placeOf(path, lineKeys, paymentIndexes)
    const field = path.slice(path.lastIndexOf('.') + 1)
    const words = plainWords(field, message)
    placed.set(place, [...(placed.get(place) ?? []).filter((m) => m !== words), words])
  }
  return placed
}
