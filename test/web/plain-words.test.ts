import { describe, expect, test } from 'bun:test'
import { fieldLabel, plainErrorLines, serverFailureLine } from '../../src/web/plain-words.ts'

describe('the API’s refusals in the desk’s words', () => {
  test('field paths read as the forms label them', () => {
    expect(fieldLabel('first_name')).toBe('First name')
    expect(fieldLabel('telephone')).toBe('Phone')
    expect(fieldLabel('line_items[1].unit_price')).toBe('Products, line 2: Price')
    expect(fieldLabel('payments[0].amount')).toBe('Payment, line 1: Amount')
    expect(fieldLabel('gym_code')).toBe('Gym code')
  })

  test('a DRF body becomes lines: detail, labelled fields, nested lines, object-level errors bare', () => {
    expect(plainErrorLines({ detail: 'Not found.' })).toEqual(['Not found.'])
    expect(plainErrorLines({ first_name: ['This field may not be blank.'] })).toEqual([
      'First name: This field may not be blank.',
    ])
    expect(
      plainErrorLines({
        non_field_errors: ['This membership was changed by another request.'],
        line_items: [{}, { unit_price: ['A valid number is required.'] }],
        email: ['Enter a valid email address.', 'Ensure this field has no more than 254 characters.'],
      }),
    ).toEqual([
      'This membership was changed by another request.',
      'Products, line 2: Price: A valid number is required.',
      'Email: Enter a valid email address.',
      'Email: Ensure this field has no more than 254 characters.',
    ])
    expect(plainErrorLines({ line_items: ['This list may not be empty.'] })).toEqual([
      'Products: This list may not be empty.',
    ])
    expect(plainErrorLines('Customer not found')).toEqual(['Customer not found'])
    expect(plainErrorLines(null)).toEqual([])
  })

  test('a failure of the box is a plain line with a reference to find it in the log', () => {
    expect(serverFailureLine(500, '5ff7f002-9640-46bb-9d89-d85b6c7736b4')).toBe(
      'Something went wrong on the appliance. Try again; if it happens again, tell the manager. (Reference 5ff7f002)',
    )
    expect(serverFailureLine(503, null)).toBe(
      'The appliance cannot save right now (its disk may be full): nothing was recorded. Try again in a minute.',
    )
  })
})
