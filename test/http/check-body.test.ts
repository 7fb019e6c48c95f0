import { describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { ValidationError } from '../../src/http/errors.ts'
import { field } from '../../src/http/fields.ts'
import { checkBody } from '../../src/http/validation.ts'

const Schema = Type.Object({
  count: field.integer({ min: 1 }),
  name: Type.Optional(field.text()),
  password: Type.Optional(field.newPassword()),
  limit: Type.Optional(field.nullable(field.integer())),
  listed: Type.Optional(field.bool()),
  tags: Type.Optional(Type.Array(field.text())),
})

/** The body `checkBody` accepts, or the DRF field errors it reports. */
function outcome(body: unknown): unknown {
  try {
    return { valid: checkBody(Schema, body).valid() }
  } catch (error) {
    if (error instanceof ValidationError) return { errors: error.fields }
    throw error
  }
}

describe('checkBody coerces as DRF serializers do, and refuses what DRF refuses', () => {
  const cases: Array<[string, unknown, unknown]> = [
    ['a numeric string is an integer', { count: '5' }, { valid: { count: 5 } }],
    ['"true" is a boolean', { count: 2, listed: 'true' }, { valid: { count: 2, listed: true } }],
    ['null where null is allowed', { count: 2, limit: null }, { valid: { count: 2, limit: null } }],
    ['text is trimmed', { count: 1, name: '  Ada  ' }, { valid: { count: 1, name: 'Ada' } }],
    [
      'white space alone is blank',
      { count: 1, name: '   ' },
      { errors: { name: ['This field may not be blank.'] } },
    ],
    [
      'passwords are not trimmed',
      { count: 1, password: ' secret12 ' },
      { valid: { count: 1, password: ' secret12 ' } },
    ],
    ['unknown fields are dropped', { count: 2, id: 9, created_at: 'x' }, { valid: { count: 2 } }],
    ['1.5 is not an integer', { count: 1.5 }, { errors: { count: ['A valid integer is required.'] } }],
    ['"1.5" is not an integer', { count: '1.5' }, { errors: { count: ['A valid integer is required.'] } }],
    ['true is not an integer', { count: true }, { errors: { count: ['A valid integer is required.'] } }],
    [
      'a nullable integer refuses 2.5',
      { count: 1, limit: 2.5 },
      { errors: { limit: ['A valid integer is required.'] } },
    ],
    [
      'the minimum holds',
      { count: 0 },
      { errors: { count: ['Ensure this value is greater than or equal to 1.'] } },
    ],
    [
      'a lone value is not a list',
      { count: 1, tags: 'a' },
      { errors: { tags: ['Expected a list of items but got type "str".'] } },
    ],
    [
      'an object is a "dict", as Python names it',
      { count: 1, tags: {} },
      { errors: { tags: ['Expected a list of items but got type "dict".'] } },
    ],
    [
      'every failing field at once, in the schema order',
      { tags: 3, listed: 'maybe', count: 'x' },
      {
        errors: {
          count: ['A valid integer is required.'],
          listed: ['Must be a valid boolean.'],
          tags: ['Expected a list of items but got type "int".'],
        },
      },
    ],
  ]
  for (const [name, body, expected] of cases) test(name, () => expect(outcome(body)).toEqual(expected))

  test('the error keys come out in the schema order', () => {
    const result = outcome({ tags: 3, listed: 'maybe', count: 'x' }) as { errors: object }
    expect(Object.keys(result.errors)).toEqual(['count', 'listed', 'tags'])
  })
})
