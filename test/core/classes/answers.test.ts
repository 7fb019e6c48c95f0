import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { sql } from 'kysely'
import { answerProblems, answersWithText, type Answer } from '../../../src/core/classes/answers.ts'
import { openDatabase, type Connection, type Db } from '../../../src/db/connection.ts'
import { migrateToLatest } from '../../../src/db/migrator.ts'
import { makeEventType, seedBasics } from '../../helpers/factories.ts'
import { makeEventQuestion } from '../../helpers/product-factories.ts'

/*
 * answerProblems and answersWithText (src/core/classes/answers.ts): the answers a booking or a
 * waitlist entry gives to its event type's questions, as POST /api/reservations/ and
 * /api/waitlist-entries/ check them and read them back. The event type has four questions, asked
 * in this order: a required free-text one, an optional yes/no one, an optional choice one and a
 * required yes/no one; another type has one of its own, and this type an inactive one.
 */

let connection: Connection
let db: Db
let typeId: number
/** Required TXT "Any injuries?" */
let injuries: number
/** Optional BOO "Renting shoes?" */
let shoes: number
/** Optional CHO "Which wall?": North, South */
let wall: number
/** Required BOO "Signed the waiver?" (sorted last) */
let waiver: number
/** Required TXT "Emergency contact?", inactive */
let retired: number
/** Another type's question */
let theirs: number

beforeEach(async () => {
  connection = openDatabase(':memory:')
  db = connection.db
  await migrateToLatest(db)
  await seedBasics(db)
  typeId = (await makeEventType(db, { name: 'Yoga' })).id
  const otherId = (await makeEventType(db, { name: 'Youth Team' })).id
  const question = async (fields: Parameters<typeof makeEventQuestion>[1]) =>
    (await makeEventQuestion(db, fields)).id
  waiver = await question({
    event_type_id: typeId,
    text: 'Signed the waiver?',
    kind: 'BOO',
    is_required: 1,
    sort_order: 9,
  })
  injuries = await question({ event_type_id: typeId, text: 'Any injuries?', is_required: 1 })
  shoes = await question({ event_type_id: typeId, text: 'Renting shoes?', kind: 'BOO' })
  wall = await question({
    event_type_id: typeId,
    text: 'Which wall?',
    kind: 'CHO',
    choices: JSON.stringify(['North', 'South']),
  })
  retired = await question({
    event_type_id: typeId,
    text: 'Emergency contact?',
    is_required: 1,
    is_active: 0,
  })
  theirs = await question({ event_type_id: otherId, text: 'Their question?' })
})
afterEach(() => connection.close())

/** The answers that satisfy every required question of the type. */
const requiredAnswers = (): Answer[] => [
  { question_id: injuries, answer: 'None' },
  { question_id: waiver, answer: true },
]

const problemsOf = (answers: Answer[]) => answerProblems(db, typeId, answers)

describe('answerProblems', () => {
  test('a type without questions takes no answers and needs none', async () => {
    const bare = (await makeEventType(db, { name: 'Open climb' })).id
    expect(await answerProblems(db, bare, [])).toEqual([])
    expect(await answerProblems(db, bare, [{ question_id: injuries, answer: 'x' }])).toEqual([
      `Invalid pk "${injuries}" - object does not exist.`,
    ])
  })

  test('every required question answered, the optional ones left out: no problem', async () => {
    expect(await problemsOf(requiredAnswers())).toEqual([])
  })

  test('every question answered, in any order, false for a yes/no one: no problem', async () => {
    expect(
      await problemsOf([
        { question_id: wall, answer: 'South' },
        { question_id: waiver, answer: false },
        { question_id: shoes, answer: true },
        { question_id: injuries, answer: 'A sore wrist' },
      ]),
    ).toEqual([])
  })

  test('no answers: each required question in the order asked', async () => {
    expect(await problemsOf([])).toEqual([
      '"Any injuries?" needs an answer.',
      '"Signed the waiver?" needs an answer.',
    ])
  })

  test('one required question unanswered', async () => {
    expect(await problemsOf([{ question_id: waiver, answer: true }])).toEqual([
      '"Any injuries?" needs an answer.',
    ])
  })

  test('a blank text is no answer to a required question', async () => {
    expect(await problemsOf([{ question_id: injuries, answer: '' }, requiredAnswers()[1]!])).toEqual([
      '"Any injuries?" needs an answer.',
    ])
  })

  test('a blank text answers an optional choice question (left unanswered)', async () => {
    expect(await problemsOf([...requiredAnswers(), { question_id: wall, answer: '' }])).toEqual([])
  })

  test('a yes/no question given a string', async () => {
    expect(await problemsOf([...requiredAnswers(), { question_id: shoes, answer: 'Yes' }])).toEqual([
      '"Renting shoes?" takes true or false.',
    ])
  })

  test('a free-text question given true or false', async () => {
    expect(await problemsOf([{ question_id: injuries, answer: false }, requiredAnswers()[1]!])).toEqual([
      '"Any injuries?" takes a text answer.',
    ])
  })

  test('a choice question given a boolean', async () => {
    expect(await problemsOf([...requiredAnswers(), { question_id: wall, answer: true }])).toEqual([
      '"Which wall?" takes a text answer.',
    ])
  })

  test('a choice question given what is not one of its choices, in case; spaces around one are trimmed', async () => {
    for (const answer of ['East', 'north']) {
      expect(await problemsOf([...requiredAnswers(), { question_id: wall, answer }])).toEqual([
        `"${answer}" is not one of the choices of "Which wall?".`,
      ])
    }
    expect(await problemsOf([...requiredAnswers(), { question_id: wall, answer: ' North ' }])).toEqual([])
  })

  test('spaces alone do not answer a required question; a required yes/no given text says so once', async () => {
    const others = requiredAnswers().filter((a) => a.question_id !== injuries && a.question_id !== waiver)
    expect(
      await problemsOf([
        ...others,
        { question_id: injuries, answer: '   ' },
        { question_id: waiver, answer: '' },
      ]),
    ).toEqual(['"Any injuries?" needs an answer.', '"Signed the waiver?" takes true or false.'])
  })

  test('an unknown question id, and the question of another type', async () => {
    expect(
      await problemsOf([
        ...requiredAnswers(),
        { question_id: 999, answer: 'x' },
        { question_id: theirs, answer: 'y' },
      ]),
    ).toEqual([
      'Invalid pk "999" - object does not exist.',
      `Invalid pk "${theirs}" - object does not exist.`,
    ])
  })

  test('an inactive question is no longer asked: not required, and not answerable', async () => {
    expect(await problemsOf([...requiredAnswers(), { question_id: retired, answer: 'Mum' }])).toEqual([
      `Invalid pk "${retired}" - object does not exist.`,
    ])
  })

  test('a question answered twice, even with the same answer, is said once per repeat', async () => {
    expect(
      await problemsOf([
        ...requiredAnswers(),
        { question_id: shoes, answer: true },
        { question_id: shoes, answer: true },
      ]),
    ).toEqual(['"Renting shoes?" is answered more than once.'])
    expect(
      await problemsOf([
        ...requiredAnswers(),
        { question_id: injuries, answer: 'None' },
        { question_id: injuries, answer: 'Still none' },
      ]),
    ).toEqual(['"Any injuries?" is answered more than once.', '"Any injuries?" is answered more than once.'])
  })

  test('every problem at once: each answer in the order given, then the unanswered required ones', async () => {
    expect(
      await problemsOf([
        { question_id: wall, answer: 'West' },
        { question_id: 999, answer: true },
        { question_id: shoes, answer: 'maybe' },
        { question_id: wall, answer: 'North' },
      ]),
    ).toEqual([
      '"West" is not one of the choices of "Which wall?".',
      'Invalid pk "999" - object does not exist.',
      '"Renting shoes?" takes true or false.',
      '"Which wall?" is answered more than once.',
      '"Any injuries?" needs an answer.',
      '"Signed the waiver?" needs an answer.',
    ])
  })

  test('a choice added later is taken, one removed is not', async () => {
    await db
      .updateTable('event_questions')
      .set({ choices: JSON.stringify(['South', 'Cave']) })
      .where('id', '=', wall)
      .execute()
    expect(await problemsOf([...requiredAnswers(), { question_id: wall, answer: 'Cave' }])).toEqual([])
    expect(await problemsOf([...requiredAnswers(), { question_id: wall, answer: 'North' }])).toEqual([
      '"North" is not one of the choices of "Which wall?".',
    ])
  })
})

/** The stored answers (as a reservation keeps them, JSON) read back with their questions' texts. */
const withText = async (answers: Answer[]) => {
  const { rows } = await sql<{ out: string }>`SELECT ${answersWithText('r.answers')} AS out
    FROM (SELECT ${JSON.stringify(answers)} AS answers) AS r`.execute(db)
  return JSON.parse(rows[0]!.out)
}

describe('answersWithText', () => {
  test('no answers read back as none', async () => {
    expect(await withText([])).toEqual([])
  })

  test("each answer in the order given, with its question's text", async () => {
    expect(
      await withText([
        { question_id: wall, answer: 'South' },
        { question_id: injuries, answer: 'None' },
        { question_id: waiver, answer: false },
      ]),
    ).toEqual([
      { question_id: wall, question_text: 'Which wall?', answer: 'South' },
      { question_id: injuries, question_text: 'Any injuries?', answer: 'None' },
      { question_id: waiver, question_text: 'Signed the waiver?', answer: false },
    ])
  })

  test('the text as the question reads now, for an inactive one too', async () => {
    await db
      .updateTable('event_questions')
      .set({ text: 'Any injuries today?' })
      .where('id', '=', injuries)
      .execute()
    expect(
      await withText([
        { question_id: injuries, answer: 'None' },
        { question_id: retired, answer: 'Mum' },
      ]),
    ).toEqual([
      { question_id: injuries, question_text: 'Any injuries today?', answer: 'None' },
      { question_id: retired, question_text: 'Emergency contact?', answer: 'Mum' },
    ])
  })

  test('a question that no longer exists reads with an empty text', async () => {
    expect(await withText([{ question_id: 999, answer: true }])).toEqual([
      { question_id: 999, question_text: '', answer: true },
    ])
  })
})
