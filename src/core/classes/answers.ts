import type { Db } from '../../db/connection.ts'
import { classMessages } from '../../domain/reservations.ts'

/*
 * Answers to an event type's questions, given when booking or joining a waitlist: each names one of
 * the type's active questions, once; a free-text question takes a string, a yes/no one true or
 * false, a choice one of its choices; every required question is answered (a blank text is no
 * answer). Stored as given, as JSON on the reservation or entry, and read back with each question's
 * text.
 */

export interface Answer {
  question_id: number
  answer: string | boolean
}

export interface AnswerOut extends Answer {
  question_text: string
}

interface Question {
  id: number
  text: string
  kind: 'TXT' | 'BOO' | 'CHO'
  choices: string
  is_required: 0 | 1
}

const activeQuestions = (db: Db, eventTypeId: number): Promise<Question[]> =>
  db
    .selectFrom('event_questions')
    .select(['id', 'text', 'kind', 'choices', 'is_required'])
    .where('event_type_id', '=', eventTypeId)
    .where('is_active', '=', 1)
    .orderBy('sort_order')
    .orderBy('id')
    .execute()

/** What is wrong with `answers` for the type's questions, in the order found; empty when nothing. */
export async function answerProblems(db: Db, eventTypeId: number, answers: Answer[]): Promise<string[]> {
  const questions = new Map((await activeQuestions(db, eventTypeId)).map((q) => [q.id, q]))
  const problems: string[] = []
  const answered = new Set<number>()
  for (const { question_id, answer } of answers) {
    const question = questions.get(question_id)
    if (!question) {
      problems.push(classMessages.unknownQuestion(question_id))
      continue
    }
    if (answered.has(question_id)) problems.push(classMessages.answeredTwice(question.text))
    answered.add(question_id)
    if (question.kind === 'BOO' && typeof answer !== 'boolean')
      problems.push(classMessages.yesOrNo(question.text))
    if (question.kind !== 'BOO' && typeof answer !== 'string')
      problems.push(classMessages.textAnswer(question.text))
    if (question.kind === 'CHO' && typeof answer === 'string' && answer !== '') {
      const choices = JSON.parse(question.choices) as string[]
      if (!choices.includes(answer)) problems.push(classMessages.notAChoice(answer, question.text))
    }
    if (question.is_required === 1 && answer === '') problems.push(classMessages.required(question.text))
  }
  for (const question of questions.values())
    if (question.is_required === 1 && !answered.has(question.id))
      problems.push(classMessages.required(question.text))
  return problems
}

/** Stored answers with each question's text (as it reads now), in the order they were given. */
export async function answersWithText(db: Db, stored: string): Promise<AnswerOut[]> {
  const answers = JSON.parse(stored) as Answer[]
  if (answers.length === 0) return []
  const texts = new Map(
    (
      await db
        .selectFrom('event_questions')
        .select(['id', 'text'])
        .where(
          'id',
          'in',
          answers.map((a) => a.question_id),
        )
        .execute()
    ).map((q) => [q.id, q.text]),
  )
  return answers.map(({ question_id, answer }) => ({
    question_id,
    question_text: texts.get(question_id) ?? '',
    answer,
  }))
}
