import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { classMessages } from '../../domain/reservations.ts'

/*
 * Answers to an event type's questions, given when booking or joining a waitlist: each names one of
 * the type's active questions, once; a free-text question takes a string, a yes/no one true or
 * false, a choice one of its choices; every required question is answered (a blank text is no
 * answer). Stored (text trimmed) as JSON on the reservation or entry, and read back with each question's
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

/** The JSON a reservation or waitlist entry keeps of its answers: as given, text trimmed. */
export const storedAnswers = (answers: Answer[]): string =>
  JSON.stringify(
    answers.map(({ question_id, answer }) => ({
      question_id,
      answer: typeof answer === 'string' ? answer.trim() : answer,
    })),
  )

/** What is wrong with `answers` for the type's questions, in the order found; empty when nothing. */
export async function answerProblems(db: Db, eventTypeId: number, answers: Answer[]): Promise<string[]> {
  const questions = new Map((await activeQuestions(db, eventTypeId)).map((q) => [q.id, q]))
  const problems: string[] = []
  const answered = new Set<number>()
  for (const { question_id, answer } of answers) {
    const question = questions.get(question_id)
    if (!question) {
      problems.push(classMessages.doesNotExist(question_id))
      continue
    }
    if (answered.has(question_id)) problems.push(classMessages.answeredTwice(question.text))
    answered.add(question_id)
    if (question.kind === 'BOO') {
      if (typeof answer !== 'boolean') problems.push(classMessages.yesOrNo(question.text))
      continue
    }
    if (typeof answer !== 'string') {
      problems.push(classMessages.textAnswer(question.text))
      continue
    }
    // Text is judged trimmed: spaces alone are no answer, and a choice may come with spaces around it.
    const text = answer.trim()
    if (text === '') {
      if (question.is_required === 1) problems.push(classMessages.required(question.text))
    } else if (question.kind === 'CHO' && !(JSON.parse(question.choices) as string[]).includes(text))
      problems.push(classMessages.notAChoice(text, question.text))
  }
  for (const question of questions.values())
    if (question.is_required === 1 && !answered.has(question.id))
      problems.push(classMessages.required(question.text))
  return problems
}

/**
 * Stored answers (the JSON column `column`) read back as JSON with each question's text as it reads
 * now, in the order they were given: one SQL expression, so a list's page reads them in its one
 * statement.
 */
export const answersWithText = (column: 'r.answers' | 'w.answers') =>
  sql<string>`(SELECT json_group_array(json_object(
      'question_id', a.value ->> 'question_id',
      'question_text', coalesce(q.text, ''),
      'answer', a.value -> 'answer') ORDER BY a.key)
    FROM json_each(${sql.ref(column)}) AS a
    LEFT JOIN event_questions AS q ON q.id = a.value ->> 'question_id')`
