import { describe, expect, test } from 'bun:test'
import { errorPaths, placeErrors } from '../../src/web/screens/sell/error-places.ts'

/*
 * The Sell screen's map from a refused sale's DRF paths to the parts of its form, and its plain
 * words for DRF's usual messages. The lines sent had keys 7 and 9; the payments sent were the
 * draft's second alone (index 1), as a quote sends the typed payments only.
 */

const LINE_KEYS = [7, 9]
const PAYMENT_INDEXES = [1]

describe('errorPaths', () => {
  test('a nested body as paths', () => {
    expect(
      errorPaths({
        customer_id: ['A'],
        line_items: [{}, { unit_price: ['B'], quantity: ['C'] }],
        payments: ['D'],
      }),
    ).toEqual([
      ['customer_id', 'A'],
      ['line_items[1].unit_price', 'B'],
      ['line_items[1].quantity', 'C'],
      ['payments', 'D'],
    ])
  })
})

describe('placeErrors', () => {
  const cases: Array<[string, unknown, Array<[string, string[]]>]> = [
    [
      'a line by its key, its field named as the form names it',
      {
        line_items: [
          {},
          {
            unit_price: ['A valid number is required.'],
            quantity: ['Ensure this value is greater than or equal to 1.'],
          },
        ],
      },
      [['line:9', ['The price must be an amount, such as 12.50.', 'The quantity must be at least 1.']]],
    ],
    [
      'a payment by its index in the draft, not in the request',
      { payments: [{ amount: ['Ensure that there are no more than 2 decimal places.'] }] },
      [['payment:1', ['The amount can have at most 2 decimal places.']]],
    ],
    [
      'a product gone since it was added',
      { line_items: [{ entry_pass_id: ['Invalid pk "99" - object does not exist.'] }, {}] },
      [['line:7', ['This product is no longer there: choose another.']]],
    ],
    [
      "the API's own sentences as they are, each at its part",
      {
        customer_id: [
          'Choose a customer: memberships, entry passes, bookings and vouchers are sold to someone.',
        ],
        discount_codes: ['No active discount has the code "X".'],
        payments: ['The payments (20.00) come to more than the invoice total (18.00).'],
        non_field_errors: ['The invoice total (100000000.00) is more than a payment can hold (99999999.99).'],
        location_id: ['Invalid pk "4" - object does not exist.'],
      },
      [
        [
          'customer',
          ['Choose a customer: memberships, entry passes, bookings and vouchers are sold to someone.'],
        ],
        ['discount', ['No active discount has the code "X".']],
        ['payments', ['The payments (20.00) come to more than the invoice total (18.00).']],
        [
          'sale',
          [
            'The invoice total (100000000.00) is more than a payment can hold (99999999.99).',
            "The desk's gym is no longer there: choose another.",
          ],
        ],
      ],
    ],
    [
      'an index the request did not have is said for the sale',
      { line_items: [{}, {}, { quantity: ['This field is required.'] }] },
      [['sale', ['The quantity is needed.']]],
    ],
  ]
  for (const [name, body, expected] of cases) {
    test(name, () => {
      expect([...placeErrors(body, LINE_KEYS, PAYMENT_INDEXES)] as unknown).toEqual(expected)
    })
  }
})
