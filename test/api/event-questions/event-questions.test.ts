import { beforeEach, describe, expect, test } from 'bun:test'
import type { EventType } from '../../../src/db/schema.ts'
import { ONE_MINUTE_LATER, ORIGIN, START } from '../../helpers/app.ts'
import {
  blank,
  emptyPage,
  invalidBoolean,
  invalidChoice,
  invalidInteger,
  maxLength,
  maxValue,
  minValue,
  notNull,
  onePage,
  required,
} from '../../helpers/bodies.ts'
import { countRows, makeEventType } from '../../helpers/factories.ts'
import { makeEventQuestion } from '../../helpers/product-factories.ts'
import {
  expectEachForbidden,
  expectEachNotAllowed,
  expectEachNotFound,
  listIds,
  type RefusedPost,
  testEachNeedsTokenApart,
  testEachRefusedPost,
  useSeededApp,
  useStaff,
} from '../../helpers/seeded.ts'

const t = useSeededApp()
const staff = useStaff(t, 'events', 'members', 'allButAdmin')

/** The event type whose questions are tested, and another one. */
let yoga: EventType
let other: EventType

beforeEach(async () => {
  yoga = await makeEventType(t.db, { name: 'Yoga' })
  other = await makeEventType(t.db, { name: 'Youth Team' })
})

const choicesNeeded = ['A choice question (CHO) needs at least one choice.']
const choicesNotTaken = ['Only a choice question (CHO) takes choices.']
const listedTwice = (choice: string) => `"${choice}" is listed more than once.`

const questionsPath = (typeId = yoga.id) => `/api/event-types/${typeId}/questions/`
const questionPath = (id: number, typeId = yoga.id) => `/api/event-types/${typeId}/questions/${id}/`
const questionCount = () => countRows(t.db, 'event_questions')

/** The whole record the API answers for a question with the factory's defaults. */
function questionBody(id: number, fields: Record<string, unknown> = {}) {
  const typeId = (fields.event_type_id as number | undefined) ?? yoga.id
  return {
    id,
    url: `${ORIGIN}/api/event-types/${typeId}/questions/${id}/`,
    event_type_id: typeId,
    text: 'Have you climbed before?',
    kind: 'TXT',
    choices: [],
    is_required: false,
    sort_order: 0,
    is_active: true,
    created_at: START,
    updated_at: START,
    ...fields,
  }
}

const storedQuestion = (id: number) =>
  t.db.selectFrom('event_questions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

/** A CHO question of yoga: Mat or No mat. */
const makeChoiceQuestion = () =>
  makeEventQuestion(t.db, {
    event_type_id: yoga.id,
    text: 'Do you need a mat?',
    kind: 'CHO',
    choices: JSON.stringify(['Mat', 'No mat']),
  })

describe('/api/event-types/<id>/questions/ 401', () => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/event-types/1/questions/'],
    ['GET', '/api/event-types/1/questions/1/'],
    ['POST', '/api/event-types/1/questions/'],
    ['PUT', '/api/event-types/1/questions/1/'],
    ['PATCH', '/api/event-types/1/questions/1/'],
    ['DELETE', '/api/event-types/1/questions/1/'],
  ]
  testEachNeedsTokenApart(t, routes, {
    body: { text: 'x' },
    setUp: () => makeEventQuestion(t.db, { event_type_id: yoga.id }),
  })
})

describe('/api/event-types/<id>/questions/ 400', () => {
  const post = (body: unknown) => t.request('POST', questionsPath(), { token: staff.events.token, body })

  test('POST with an empty body needs text', async () => {
    const res = await post({})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ text: required })
    expect(await questionCount()).toBe(0)
  })

  const cases: RefusedPost[] = [
    ['a blank text', { text: '' }, { text: blank }],
    ['a text of spaces only', { text: '   ' }, { text: blank }],
    ['a null text', { text: null }, { text: notNull }],
    ['a text of 1001 characters', { text: 'x'.repeat(1001) }, { text: maxLength(1000) }],
    ['an unknown kind', { kind: 'XYZ' }, { kind: invalidChoice('XYZ') }],
    ['a kind in lower case', { kind: 'cho', choices: ['A'] }, { kind: invalidChoice('cho') }],
    ['CHO without choices', { kind: 'CHO' }, { choices: choicesNeeded }],
    ['CHO with no choices', { kind: 'CHO', choices: [] }, { choices: choicesNeeded }],
    ['choices on a question of the default kind (TXT)', { choices: ['Yes'] }, { choices: choicesNotTaken }],
    ['choices on a TXT question', { kind: 'TXT', choices: ['Yes'] }, { choices: choicesNotTaken }],
    ['choices on a BOO question', { kind: 'BOO', choices: ['Yes', 'No'] }, { choices: choicesNotTaken }],
    [
      'a choice given twice',
      { kind: 'CHO', choices: ['Red', 'Blue', 'Red'] },
      { choices: [listedTwice('Red')] },
    ],
    [
      'a choice given twice once trimmed',
      { kind: 'CHO', choices: ['Red', ' Red '] },
      { choices: [listedTwice('Red')] },
    ],
    [
      'two choices given twice each',
      { kind: 'CHO', choices: ['Red', 'Blue', 'Blue', 'Red', 'Red'] },
      { choices: [listedTwice('Blue'), listedTwice('Red')] },
    ],
    ['a blank choice', { kind: 'CHO', choices: ['Red', ''] }, { choices: blank }],
    ['a choice of spaces only', { kind: 'CHO', choices: ['  ', 'Red'] }, { choices: blank }],
    [
      'blank choices and a choice given twice: blank is said once, alone',
      { kind: 'CHO', choices: ['Red', ' ', 'Red', '  '] },
      { choices: blank },
    ],
    [
      'an empty choice and a choice given twice: the same',
      { kind: 'CHO', choices: ['', 'Red', 'Red'] },
      { choices: blank },
    ],
    ['a null choice', { kind: 'CHO', choices: ['Red', null] }, { choices: notNull }],
    ['a choice of 256 characters', { kind: 'CHO', choices: ['x'.repeat(256)] }, { choices: maxLength(255) }],
    [
      'choices that are not a list',
      { kind: 'CHO', choices: 'Red' },
      { choices: ['Expected a list of items but got type "str".'] },
    ],
    ['choices null', { kind: 'CHO', choices: null }, { choices: notNull }],
    ['is_required "sometimes"', { is_required: 'sometimes' }, { is_required: invalidBoolean }],
    ['is_active "x"', { is_active: 'x' }, { is_active: invalidBoolean }],
    ['sort_order 1.5', { sort_order: 1.5 }, { sort_order: invalidInteger }],
    ['sort_order "first"', { sort_order: 'first' }, { sort_order: invalidInteger }],
    ['sort_order 2147483648', { sort_order: 2147483648 }, { sort_order: maxValue(2147483647) }],
    ['sort_order -2147483649', { sort_order: -2147483649 }, { sort_order: minValue(-2147483648) }],
  ]
  testEachRefusedPost(cases, { post, count: questionCount, base: () => ({ text: 'Any injuries?' }) })

  test('every failing field at once; choices are not judged against a kind that failed', async () => {
    const res = await post({
      text: '',
      kind: 'YES',
      choices: ['A', 'A'],
      is_required: 'x',
      sort_order: 'last',
      is_active: 'maybe',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      text: blank,
      kind: invalidChoice('YES'),
      is_required: invalidBoolean,
      sort_order: invalidInteger,
      is_active: invalidBoolean,
    })
    expect(await questionCount()).toBe(0)
  })

  test('a choice rule is reported with the other failing fields', async () => {
    const res = await post({ text: '', kind: 'CHO', sort_order: 1.5 })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ text: blank, choices: choicesNeeded, sort_order: invalidInteger })
  })

  test('PUT needs text; a refused PUT or PATCH changes nothing', async () => {
    const question = await makeChoiceQuestion()
    t.clock.advance(60_000)
    const calls: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
      ['PUT', { kind: 'CHO', choices: ['Mat'] }, { text: required }],
      ['PUT', { text: 'Mat?', choices: [] }, { choices: choicesNeeded }],
      ['PATCH', { text: 'Changed', kind: 'TXT' }, { choices: choicesNotTaken }],
      ['PATCH', { text: 'Changed', kind: 'BOO' }, { choices: choicesNotTaken }],
      ['PATCH', { text: 'Changed', choices: [] }, { choices: choicesNeeded }],
      ['PATCH', { text: 'Changed', choices: ['Mat', 'Mat'] }, { choices: [listedTwice('Mat')] }],
      ['PATCH', { text: 'Changed', kind: 'ABC' }, { kind: invalidChoice('ABC') }],
      ['PATCH', { text: '' }, { text: blank }],
    ]
    for (const [method, body, errors] of calls) {
      const res = await t.request(method, questionPath(question.id), { token: staff.events.token, body })
      expect({ method, body, status: res.status, errors: res.body }).toEqual({
        method,
        body,
        status: 400,
        errors,
      })
    }
    expect(await storedQuestion(question.id)).toEqual(question)
  })

  test('PATCH of a TXT question to CHO needs choices sent with it', async () => {
    const question = await makeEventQuestion(t.db, { event_type_id: yoga.id })
    const res = await t.request('PATCH', questionPath(question.id), {
      token: staff.events.token,
      body: { kind: 'CHO' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ choices: choicesNeeded })
    expect(await storedQuestion(question.id)).toEqual(question)
  })

  test('PATCH with choices alone on a TXT question is refused', async () => {
    const question = await makeEventQuestion(t.db, { event_type_id: yoga.id })
    const res = await t.request('PATCH', questionPath(question.id), {
      token: staff.events.token,
      body: { choices: ['Yes'] },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ choices: choicesNotTaken })
    expect(await storedQuestion(question.id)).toEqual(question)
  })
})

describe('/api/event-types/<id>/questions/ 403', () => {
  for (const [who, token] of [
    ['a staff user without permissions', () => t.seed.staffToken],
    ['a user with can_manage_members only', () => staff.members.token],
  ] as const) {
    test(`${who} reads but cannot write`, async () => {
      const question = await makeEventQuestion(t.db, { event_type_id: yoga.id })
      const list = await t.request('GET', questionsPath(), { token: token() })
      expect(list.status).toBe(200)
      expect(list.body).toEqual(onePage([questionBody(question.id)]))
      const read = await t.request('GET', questionPath(question.id), { token: token() })
      expect(read.status).toBe(200)
      expect(read.body).toEqual(questionBody(question.id))
      for (const body of [{ text: 'Any injuries?' }, { text: '' }]) {
        await expectEachForbidden(
          t,
          [token()],
          [
            ['POST', questionsPath(), body],
            ['PUT', questionPath(question.id), body],
            ['PATCH', questionPath(question.id), body],
          ],
        )
      }
      expect(await storedQuestion(question.id)).toEqual(question)
      expect(await questionCount()).toBe(1)
    })
  }

  test('the 403 body is exact', async () => {
    const res = await t.request('POST', questionsPath(), {
      token: t.seed.staffToken,
      body: { text: 'Any injuries?' },
    })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.' })
  })

  test('a user with every flag writes', async () => {
    const res = await t.request('POST', questionsPath(), {
      token: staff.allButAdmin.token,
      body: { text: 'Any injuries?' },
    })
    expect(res.status).toBe(201)
  })
})

describe('/api/event-types/<id>/questions/ 404 and 405', () => {
  test('an unknown event type is 404 for the list, create and a record, and creates nothing', async () => {
    const question = await makeEventQuestion(t.db, { event_type_id: yoga.id })
    const body = { text: 'Any injuries?' }
    await expectEachNotFound(t, staff.events.token, [
      ['GET', questionsPath(999)],
      ['POST', questionsPath(999), body],
      ['POST', questionsPath(999), { text: '' }],
      ['GET', questionPath(question.id, 999)],
      ['PUT', questionPath(question.id, 999), body],
      ['PATCH', questionPath(question.id, 999), body],
    ])
    expect(await questionCount()).toBe(1)
    expect(await storedQuestion(question.id)).toEqual(question)
  })

  test("another event type's question is 404 for read, PUT and PATCH, and is not changed", async () => {
    const theirs = await makeEventQuestion(t.db, { event_type_id: other.id })
    const calls = ['GET', 'PUT', 'PATCH'].map(
      (method) => [method, questionPath(theirs.id), { text: 'Hijacked' }] as const,
    )
    await expectEachNotFound(t, staff.events.token, calls)
    expect(await storedQuestion(theirs.id)).toEqual(theirs)
  })

  test('an unknown question is 404', async () => {
    await expectEachNotFound(t, staff.events.token, [
      ['GET', questionPath(999)],
      ['PATCH', questionPath(999), { text: 'x' }],
    ])
  })

  test('DELETE is 405: a question is deactivated with is_active false', async () => {
    const question = await makeEventQuestion(t.db, { event_type_id: yoga.id })
    await expectEachNotAllowed(t, t.seed.adminToken, [['DELETE', questionPath(question.id)]])
    expect(await questionCount()).toBe(1)
  })
})

describe('/api/event-types/<id>/questions/ success', () => {
  test('POST with text only: free text, optional, sorted at 0, active', async () => {
    t.clock.advance(60_000)
    const res = await t.request('POST', questionsPath(), {
      token: staff.events.token,
      body: { text: '  Have you climbed before?  ' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      questionBody(res.body.id, { created_at: ONE_MINUTE_LATER, updated_at: ONE_MINUTE_LATER }),
    )
    const read = await t.request('GET', questionPath(res.body.id), { token: t.seed.staffToken })
    expect(read.body).toEqual(res.body)
  })

  test('POST a CHO question: choices trimmed, in the order sent, stored as a JSON list', async () => {
    const res = await t.request('POST', questionsPath(), {
      token: staff.events.token,
      body: {
        text: 'Which wall?',
        kind: 'CHO',
        choices: [' North ', 'South', 'north'],
        is_required: true,
        sort_order: -5,
        is_active: false,
      },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(
      questionBody(res.body.id, {
        text: 'Which wall?',
        kind: 'CHO',
        choices: ['North', 'South', 'north'],
        is_required: true,
        sort_order: -5,
        is_active: false,
      }),
    )
    expect((await storedQuestion(res.body.id)).choices).toBe('["North","South","north"]')
  })

  test('POST a BOO question with no choices (an empty list may be sent); an admin passes too', async () => {
    const res = await t.request('POST', questionsPath(), {
      token: t.seed.adminToken,
      body: { text: 'Renting shoes?', kind: 'BOO', choices: [] },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(questionBody(res.body.id, { text: 'Renting shoes?', kind: 'BOO' }))
  })

  test('read-only fields sent on create are ignored: the question belongs to the path', async () => {
    const res = await t.request('POST', questionsPath(), {
      token: staff.events.token,
      body: {
        text: 'Have you climbed before?',
        id: 50,
        event_type_id: other.id,
        url: 'http://elsewhere.example/',
        created_at: '2000-01-01T00:00:00.000Z',
      },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual(questionBody(1))
  })

  test('the extreme sort orders are accepted', async () => {
    for (const sort_order of [-2147483648, 2147483647]) {
      const res = await t.request('POST', questionsPath(), {
        token: staff.events.token,
        body: { text: 'Have you climbed before?', sort_order },
      })
      expect(res.status).toBe(201)
      expect(res.body.sort_order).toBe(sort_order)
    }
  })

  test('PUT replaces the sent fields and keeps the others; PATCH changes one', async () => {
    const question = await makeEventQuestion(t.db, { event_type_id: yoga.id, is_required: 1, sort_order: 3 })
    t.clock.advance(60_000)
    const put = await t.request('PUT', questionPath(question.id), {
      token: staff.events.token,
      body: { text: 'Any injuries?', kind: 'BOO' },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual(
      questionBody(question.id, {
        text: 'Any injuries?',
        kind: 'BOO',
        is_required: true,
        sort_order: 3,
        updated_at: ONE_MINUTE_LATER,
      }),
    )
    const patch = await t.request('PATCH', questionPath(question.id), {
      token: staff.events.token,
      body: { is_active: false },
    })
    expect(patch.status).toBe(200)
    expect(patch.body).toEqual({ ...put.body, is_active: false })
    const read = await t.request('GET', questionPath(question.id), { token: t.seed.staffToken })
    expect(read.body).toEqual(patch.body)
  })

  test('a CHO question keeps its choices when others change, and takes new ones', async () => {
    const question = await makeChoiceQuestion()
    const patch = (body: Record<string, unknown>) =>
      t.request('PATCH', questionPath(question.id), { token: staff.events.token, body })
    const renamed = await patch({ text: 'A mat?', kind: 'CHO' })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toEqual(
      questionBody(question.id, { text: 'A mat?', kind: 'CHO', choices: ['Mat', 'No mat'] }),
    )
    const rechosen = await patch({ choices: ['Own mat', 'Rent a mat', 'No mat'] })
    expect(rechosen.status).toBe(200)
    expect(rechosen.body.choices).toEqual(['Own mat', 'Rent a mat', 'No mat'])
  })

  test('a CHO question becomes free text with choices: [] sent along, and back with choices', async () => {
    const question = await makeChoiceQuestion()
    const patch = (body: Record<string, unknown>) =>
      t.request('PATCH', questionPath(question.id), { token: staff.events.token, body })
    const text = await patch({ kind: 'TXT', choices: [] })
    expect(text.status).toBe(200)
    expect(text.body).toEqual(questionBody(question.id, { text: 'Do you need a mat?' }))
    expect((await storedQuestion(question.id)).choices).toBe('[]')
    const choice = await patch({ kind: 'CHO', choices: ['Yes', 'No'] })
    expect(choice.status).toBe(200)
    expect(choice.body).toEqual(
      questionBody(question.id, { text: 'Do you need a mat?', kind: 'CHO', choices: ['Yes', 'No'] }),
    )
  })

  test('the list is ordered by sort_order, then id, and holds this type only, inactive ones too', async () => {
    const late = await makeEventQuestion(t.db, { event_type_id: yoga.id, text: 'Late', sort_order: 10 })
    const firstZero = await makeEventQuestion(t.db, { event_type_id: yoga.id, text: 'Zero A' })
    await makeEventQuestion(t.db, { event_type_id: other.id, text: 'Theirs', sort_order: -100 })
    const early = await makeEventQuestion(t.db, { event_type_id: yoga.id, text: 'Early', sort_order: -1 })
    const secondZero = await makeEventQuestion(t.db, {
      event_type_id: yoga.id,
      text: 'Zero B',
      is_active: 0,
    })
    const res = await t.request('GET', questionsPath(), { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(
      onePage([
        questionBody(early.id, { text: 'Early', sort_order: -1 }),
        questionBody(firstZero.id, { text: 'Zero A' }),
        questionBody(secondZero.id, { text: 'Zero B', is_active: false }),
        questionBody(late.id, { text: 'Late', sort_order: 10 }),
      ]),
    )
  })

  test('a changed sort_order moves a question in the list', async () => {
    const a = await makeEventQuestion(t.db, { event_type_id: yoga.id, text: 'A' })
    const b = await makeEventQuestion(t.db, { event_type_id: yoga.id, text: 'B' })
    const ids = listIds(t, questionsPath())
    expect(await ids()).toEqual([a.id, b.id])
    await t.request('PATCH', questionPath(a.id), { token: staff.events.token, body: { sort_order: 1 } })
    expect(await ids()).toEqual([b.id, a.id])
  })

  test('the list filters on is_active', async () => {
    const active = await makeEventQuestion(t.db, { event_type_id: yoga.id })
    const inactive = await makeEventQuestion(t.db, { event_type_id: yoga.id, is_active: 0 })
    const ids = listIds(t, questionsPath())
    expect(await ids('is_active=true')).toEqual([active.id])
    expect(await ids('is_active=false')).toEqual([inactive.id])
    expect(await ids()).toEqual([active.id, inactive.id])
  })

  test('an event type without questions has an empty list, at its questions_url', async () => {
    const type = await t.request('GET', `/api/event-types/${yoga.id}/`, { token: t.seed.staffToken })
    expect(type.body.questions_url).toBe(`${ORIGIN}${questionsPath()}`)
    const res = await t.request('GET', questionsPath(), { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(emptyPage)
  })

  test('the list pages', async () => {
    for (let i = 0; i < 3; i++) await makeEventQuestion(t.db, { event_type_id: yoga.id, sort_order: i })
    const res = await t.request('GET', `${questionsPath()}?page_size=2`, { token: t.seed.staffToken })
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(3)
    expect(res.body.next).toBe(`${ORIGIN}${questionsPath()}?page_size=2&page=2`)
    expect(res.body.results.map((q: { sort_order: number }) => q.sort_order)).toEqual([0, 1])
  })
})
