import { describe, expect, test } from 'bun:test'
import { t, type TSchema } from 'elysia'
import { Value } from '@sinclair/typebox/value'
import { GymWrite } from '../../src/api/gyms/schema.ts'
import { EventTypeWrite } from '../../src/api/event-types/schema.ts'
import { LoginThrottle } from '../../src/core/auth/login-throttle.ts'
import { ApiError } from '../../src/http/errors.ts'
import { field } from '../../src/http/fields.ts'
import { readPage, settlePage, type Page } from '../../src/http/pagination.ts'
import { drfMessage, toFieldErrors } from '../../src/http/validation.ts'
import { fixedClock } from '../../src/lib/clock.ts'

const START = '2026-11-22T15:04:05.123Z'

describe('drfMessage: the DRF wording for one failing value', () => {
  const cases: Array<{ name: string; schema: TSchema; value: unknown; message: string }> = [
    { name: 'a missing value', schema: field.text(), value: undefined, message: 'This field is required.' },
    { name: 'null', schema: field.integer(), value: null, message: 'This field may not be null.' },
    { name: 'blank text', schema: field.text(), value: '', message: 'This field may not be blank.' },
    {
      name: 'text over its maximum length',
      schema: field.text({ maxLength: 5 }),
      value: 'boulder',
      message: 'Ensure this field has no more than 5 characters.',
    },
    { name: 'a number where text is wanted', schema: field.text(), value: 5, message: 'Not a valid string.' },
    {
      name: 'a malformed email',
      schema: field.email(),
      value: 'not-an-email',
      message: 'Enter a valid email address.',
    },
    {
      name: 'a malformed date',
      schema: field.date(),
      value: '22/11/2026',
      message: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
    },
    {
      name: 'an unknown time zone',
      schema: field.timeZone(),
      value: 'Mars/Olympus',
      message: 'A valid timezone is required.',
    },
    {
      name: 'text not matching a pattern, with its own message',
      schema: field.pattern('^[a-z]+$', 'Letters only.'),
      value: 'a b',
      message: 'Letters only.',
    },
    {
      name: 'text where an integer is wanted',
      schema: field.integer(),
      value: 'abc',
      message: 'A valid integer is required.',
    },
    {
      name: 'a fraction where an integer is wanted',
      schema: field.integer(),
      value: 1.5,
      message: 'A valid integer is required.',
    },
    {
      name: 'an integer below its minimum',
      schema: field.integer({ min: 1 }),
      value: 0,
      message: 'Ensure this value is greater than or equal to 1.',
    },
    {
      name: 'an integer above its maximum',
      schema: field.integer({ max: 1000 }),
      value: 1001,
      message: 'Ensure this value is less than or equal to 1000.',
    },
    {
      name: 'an integer at an exclusive maximum (reported as the largest allowed)',
      schema: t.Integer({ exclusiveMaximum: 60 }),
      value: 60,
      message: 'Ensure this value is less than or equal to 59.',
    },
    {
      name: 'a number at an exclusive minimum',
      schema: field.number({ exclusiveMin: 0 }),
      value: 0,
      message: 'Ensure this value is greater than 0.',
    },
    {
      name: 'text where a number is wanted',
      schema: field.number(),
      value: 'lots',
      message: 'A valid number is required.',
    },
    {
      name: 'a nullable integer given text',
      schema: field.nullable(field.integer({ min: 1 })),
      value: 'abc',
      message: 'A valid integer is required.',
    },
    {
      name: 'a nullable integer below its minimum',
      schema: field.nullable(field.integer({ min: 1 })),
      value: 0,
      message: 'Ensure this value is greater than or equal to 1.',
    },
    {
      name: 'text where a boolean is wanted',
      schema: field.bool(),
      value: 'yes',
      message: 'Must be a valid boolean.',
    },
    {
      name: 'a value outside a choice',
      schema: field.choice(['SUN', 'MON']),
      value: 'TUE',
      message: '"TUE" is not a valid choice.',
    },
    {
      name: 'a list where an object is wanted',
      schema: t.Object({}),
      value: [],
      message: 'Invalid data. Expected a dictionary, but got list.',
    },
    {
      name: 'text where a list is wanted',
      schema: t.Array(t.String()),
      value: 'a',
      message: 'Expected a list of items but got type "str".',
    },
  ]

  for (const c of cases) {
    test(c.name, () => {
      expect(drfMessage(c.schema as Record<string, any>, c.value)).toBe(c.message)
    })
  }
})

describe('toFieldErrors: every failing field at once', () => {
  const errorsOf = (schema: TSchema, value: unknown) =>
    toFieldErrors([...Value.Errors(schema, value)] as never)

  const cases: Array<{ name: string; schema: TSchema; value: unknown; expected: Record<string, string[]> }> =
    [
      {
        name: 'an empty gym body reports both required fields',
        schema: GymWrite,
        value: {},
        expected: { name: ['This field is required.'], time_zone: ['This field is required.'] },
      },
      {
        name: 'several bad gym fields are each reported once, with the first message',
        schema: GymWrite,
        value: {
          name: '',
          time_zone: 'Nowhere/Special',
          hide_setter: 'sometimes',
          capacity: 0,
          scheduler_first_day_of_week: 'FRI',
          scheduler_url_path: 'has spaces',
        },
        expected: {
          name: ['This field may not be blank.'],
          time_zone: ['A valid timezone is required.'],
          hide_setter: ['Must be a valid boolean.'],
          capacity: ['Ensure this value is greater than or equal to 1.'],
          scheduler_first_day_of_week: ['"FRI" is not a valid choice.'],
          scheduler_url_path: ['Enter a valid value consisting only of letters, numbers or hyphens.'],
        },
      },
      {
        name: 'event-type bounds use the reference limits',
        schema: EventTypeWrite,
        value: { name: 'Intro', gym_id: 1, status: 'ACT', capacity: 1001, late_booking_window_minutes: 60 },
        expected: {
          capacity: ['Ensure this value is less than or equal to 1000.'],
          late_booking_window_minutes: ['Ensure this value is less than or equal to 59.'],
        },
      },
      {
        name: 'a valid body has no errors',
        schema: GymWrite,
        value: { name: 'Crag Annex', time_zone: 'America/Denver' },
        expected: {},
      },
    ]

  for (const c of cases) {
    test(c.name, () => {
      expect(errorsOf(c.schema, c.value)).toEqual(c.expected)
    })
  }

  test('a nested failure is reported on its top-level field', () => {
    const schema = t.Object({ address: t.Object({ city: field.text() }) })
    expect(errorsOf(schema, { address: { city: '' } })).toEqual({ address: ['This field may not be blank.'] })
  })

  test('a failure of the whole body goes under non_field_errors', () => {
    expect(toFieldErrors([{ path: '', value: [], schema: { type: 'object' } }])).toEqual({
      non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
    })
  })

  test('only the first message per field is kept', () => {
    const schema = { type: 'string', minLength: 1 }
    expect(
      toFieldErrors([
        { path: '/name', value: '', schema },
        { path: '/name', value: 5, schema },
      ]),
    ).toEqual({ name: ['This field may not be blank.'] })
  })
})

describe('readPage: page and page_size as DRF reads them', () => {
  const cases: Array<{ name: string; query: Record<string, string>; page: Page }> = [
    { name: 'no parameters: page 1 of 10', query: {}, page: { number: 1, size: 10, offset: 0 } },
    { name: 'page 3 of the default size', query: { page: '3' }, page: { number: 3, size: 10, offset: 20 } },
    {
      name: 'page 2 of 25',
      query: { page: '2', page_size: '25' },
      page: { number: 2, size: 25, offset: 25 },
    },
    {
      name: 'page_size 100 is allowed',
      query: { page_size: '100' },
      page: { number: 1, size: 100, offset: 0 },
    },
    {
      name: 'page_size above 100 is clamped',
      query: { page: '2', page_size: '101' },
      page: { number: 2, size: 100, offset: 100 },
    },
    {
      name: 'page_size 0 falls back to 10',
      query: { page_size: '0' },
      page: { number: 1, size: 10, offset: 0 },
    },
    {
      name: 'a negative page_size falls back to 10',
      query: { page_size: '-1' },
      page: { number: 1, size: 10, offset: 0 },
    },
    {
      name: 'a non-numeric page_size falls back to 10',
      query: { page_size: 'abc' },
      page: { number: 1, size: 10, offset: 0 },
    },
    {
      name: 'a fractional page_size falls back to 10',
      query: { page_size: '2.5' },
      page: { number: 1, size: 10, offset: 0 },
    },
    {
      name: 'an empty page_size falls back to 10',
      query: { page_size: '' },
      page: { number: 1, size: 10, offset: 0 },
    },
    {
      name: '"last" is left for settlePage to resolve',
      query: { page: 'last' },
      page: { number: 1, size: 10, offset: 0 },
    },
  ]
  for (const c of cases) {
    test(c.name, () => {
      expect(readPage(c.query)).toEqual(c.page)
    })
  }

  for (const page of ['abc', '0', '-1', '1.5', '2x']) {
    test(`page "${page}" is 404 Invalid page`, () => {
      let thrown: unknown
      try {
        readPage({ page })
      } catch (e) {
        thrown = e
      }
      expect(thrown).toBeInstanceOf(ApiError)
      expect(thrown).toMatchObject({ status: 404, body: { detail: 'Invalid page.' } })
    })
  }
})

describe('settlePage: the asked page checked against the count', () => {
  const size10 = (number: number): Page => ({ number, size: 10, offset: (number - 1) * 10 })

  const cases: Array<{ name: string; query: Record<string, string>; count: number; page: Page }> = [
    { name: 'page 1 of an empty list is fine', query: {}, count: 0, page: size10(1) },
    { name: 'the exact last page', query: { page: '3' }, count: 30, page: size10(3) },
    { name: 'a partial last page', query: { page: '4' }, count: 31, page: size10(4) },
    { name: '"last" resolves to the last page', query: { page: 'last' }, count: 31, page: size10(4) },
    { name: '"last" of an empty list is page 1', query: { page: 'last' }, count: 0, page: size10(1) },
  ]
  for (const c of cases) {
    test(c.name, () => {
      expect(settlePage(c.query, readPage(c.query), c.count)).toEqual(c.page)
    })
  }

  for (const [name, query, count] of [
    ['page 2 of an empty list', { page: '2' }, 0],
    ['one page past a full last page', { page: '4' }, 30],
  ] as const) {
    test(`${name} is 404 Invalid page`, () => {
      expect(() => settlePage(query, readPage(query), count)).toThrow('Invalid page.')
    })
  }
})

describe('LoginThrottle: ten failures per username within 15 minutes', () => {
  const SECOND = 1000
  const MINUTE = 60 * SECOND
  const start = new Date(START).getTime()

  /**
   * Each case records failures for "desk@gym.example" at the given offsets from START (ms), then asks
   * at `askAt` how long that username must wait.
   */
  const cases: Array<{ name: string; failuresAt: number[]; askAt: number; wait: number; username?: string }> =
    [
      { name: 'no failures: no wait', failuresAt: [], askAt: 0, wait: 0 },
      { name: 'nine failures: no wait', failuresAt: Array(9).fill(0), askAt: 0, wait: 0 },
      { name: 'ten failures at once: the whole window', failuresAt: Array(10).fill(0), askAt: 0, wait: 900 },
      {
        name: 'ten failures, asked 5 minutes later',
        failuresAt: Array(10).fill(0),
        askAt: 5 * MINUTE,
        wait: 600,
      },
      {
        name: 'partial seconds round up',
        failuresAt: Array(10).fill(0),
        askAt: 500,
        wait: 900,
      },
      {
        name: 'half a second before the end still waits 1 second',
        failuresAt: Array(10).fill(0),
        askAt: 15 * MINUTE - 500,
        wait: 1,
      },
      {
        name: 'exactly at the end of the window: open again',
        failuresAt: Array(10).fill(0),
        askAt: 15 * MINUTE,
        wait: 0,
      },
      {
        name: 'the wait runs from the oldest of the ten, not the newest',
        failuresAt: [0, ...Array(9).fill(10 * MINUTE)],
        askAt: 10 * MINUTE,
        wait: 300,
      },
      {
        name: 'once the oldest leaves the window, nine remain: open',
        failuresAt: [0, ...Array(9).fill(10 * MINUTE)],
        askAt: 15 * MINUTE,
        wait: 0,
      },
      {
        name: 'with eleven failures the wait runs from the second oldest',
        failuresAt: [0, 2 * MINUTE, ...Array(9).fill(4 * MINUTE)],
        askAt: 4 * MINUTE,
        wait: 13 * 60,
      },
      {
        name: 'failures spread wider than the window never throttle',
        failuresAt: Array.from({ length: 20 }, (_, i) => i * 2 * MINUTE),
        askAt: 38 * MINUTE,
        wait: 0,
      },
      {
        name: 'the username is compared case-insensitively',
        failuresAt: Array(10).fill(0),
        askAt: 0,
        wait: 900,
        username: 'Desk@Gym.EXAMPLE',
      },
      {
        name: 'another username is not affected',
        failuresAt: Array(10).fill(0),
        askAt: 0,
        wait: 0,
        username: 'other@gym.example',
      },
    ]

  for (const c of cases) {
    test(c.name, () => {
      const clock = fixedClock(START)
      const throttle = new LoginThrottle(clock)
      for (const at of c.failuresAt) {
        clock.set(new Date(start + at))
        throttle.recordFailure('desk@gym.example')
      }
      clock.set(new Date(start + c.askAt))
      expect(throttle.retryAfterSeconds(c.username ?? 'desk@gym.example')).toBe(c.wait)
    })
  }

  test('failures recorded in any case count together', () => {
    const clock = fixedClock(START)
    const throttle = new LoginThrottle(clock)
    for (let i = 0; i < 5; i++) throttle.recordFailure('DESK@GYM.EXAMPLE')
    for (let i = 0; i < 5; i++) throttle.recordFailure('desk@gym.example')
    expect(throttle.retryAfterSeconds('desk@gym.example')).toBe(900)
  })

  test('the limit and window can be set', () => {
    const clock = fixedClock(START)
    const throttle = new LoginThrottle(clock, 3, MINUTE)
    for (let i = 0; i < 3; i++) throttle.recordFailure('desk@gym.example')
    expect(throttle.retryAfterSeconds('desk@gym.example')).toBe(60)
    clock.advance(MINUTE)
    expect(throttle.retryAfterSeconds('desk@gym.example')).toBe(0)
  })
})
