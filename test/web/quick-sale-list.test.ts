import { describe, expect, test } from 'bun:test'
import {
  editedButtons,
  moved,
  placeRefusal,
  replaceBody,
} from '../../src/web/screens/sell/quick-sale-list.ts'

/*
 * The quick-sale editor's list: moving a button, the body PUT sends, and a refusal placed at the
 * buttons it is about. The list sent held the buttons keyed 4, 2 and 7, in that order.
 */

const SENT_KEYS = [4, 2, 7]

const listed = editedButtons([
  { purchase_type: 'EPA', product_id: 11, label: 'Day pass' },
  { purchase_type: 'MIN', product_id: 12, label: 'Monthly' },
  { purchase_type: 'VPO', product_id: 13, label: 'Yoga' },
])

describe('moved', () => {
  test('earlier and later swap with the neighbour; past either end nothing moves', () => {
    const order = (buttons: typeof listed) => buttons.map((b) => b.label)
    expect(order(moved(listed, 2, -1))).toEqual(['Monthly', 'Day pass', 'Yoga'])
    expect(order(moved(listed, 2, 1))).toEqual(['Day pass', 'Yoga', 'Monthly'])
    expect(order(moved(listed, 1, -1))).toEqual(['Day pass', 'Monthly', 'Yoga'])
    expect(order(moved(listed, 3, 1))).toEqual(['Day pass', 'Monthly', 'Yoga'])
  })
})

test("replaceBody leaves a blank label out, so the button says the product's name", () => {
  expect(
    replaceBody([
      { ...listed[0]!, label: '  ' },
      { ...listed[1]!, label: ' Month ' },
    ]),
  ).toEqual({
    quick_sales: [
      { purchase_type: 'EPA', product_id: 11 },
      { purchase_type: 'MIN', product_id: 12, label: 'Month' },
    ],
  })
})

describe('placeRefusal', () => {
  const cases: Array<[string, unknown, { list: string[]; buttons: Array<[number, string[]]> }]> = [
    [
      'a retired or missing product at the button sent at its index',
      {
        quick_sales: [
          {},
          { product_id: ['Only an active product can be sold.'] },
          { product_id: ['Invalid pk "99" - object does not exist.'] },
        ],
      },
      {
        list: [],
        buttons: [
          [2, ['This product is no longer for sale: remove this button.']],
          [7, ['This product is no longer for sale: remove this button.']],
        ],
      },
    ],
    [
      "a label too long, in DRF's words made plain",
      { quick_sales: [{ label: ['Ensure this field has no more than 40 characters.'] }] },
      { list: [], buttons: [[4, ['The label can be at most 40 characters.']]] },
    ],
    [
      'too many buttons, about the list as a whole',
      { quick_sales: ['Ensure this field has no more than 8 elements.'] },
      { list: ['The Sell screen shows at most 8 buttons: remove one.'], buttons: [] },
    ],
    [
      'an index that was not sent, about the list as a whole',
      { quick_sales: [{}, {}, {}, { product_id: ['This field is required.'] }] },
      { list: ['This product is needed.'], buttons: [] },
    ],
  ]
  for (const [name, body, expected] of cases)
    test(name, () => {
      const placed = placeRefusal(body, SENT_KEYS)
      expect({ list: placed.list, buttons: [...placed.buttons] }).toEqual(expected)
    })
})
