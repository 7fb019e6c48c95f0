import type { Static } from '@sinclair/typebox'
import type { Deps } from '../../deps.ts'
import { toFlag } from '../../db/flags.ts'
import { messages, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { choicesOf, insertEventQuestion, updateEventQuestion, type EventQuestionRow } from './queries.ts'
import type { EventQuestionWrite } from './schema.ts'

type QuestionInput = Static<typeof EventQuestionWrite>

/** How `choices` is refused when it does not fit the question's kind or names a choice twice. */
export const questionMessages = {
  choicesNeeded: 'A choice question (CHO) needs at least one choice.',
  choicesNotTaken: 'Only a choice question (CHO) takes choices.',
  choiceTwice: (choice: string) => `"${choice}" is listed more than once.`,
}

/**
 * The choices sent, trimmed (undefined when none were sent), checked with the kind the question
 * will have once written (the kind sent, else the stored one, else TXT): a CHO question needs at
 * least one choice, a TXT or BOO question takes none (the stored ones count when none are sent, so
 * turning a CHO question into another kind sends `choices: []` with it), and no sent choice is
 * blank (then nothing more is said of them) or given twice. Nothing is judged across the two
 * fields while either has failed its schema.
 */
function checkChoices(
  fields: Partial<QuestionInput>,
  errors: FieldErrorCollector,
  existing?: EventQuestionRow,
): string[] | undefined {
  const sent = fields.choices?.map((choice) => choice.trim())
  if (errors.has('kind') || errors.has('choices')) return sent
  const kind = fields.kind ?? existing?.kind ?? 'TXT'
  const choices = sent ?? (existing ? choicesOf(existing) : [])
  if (kind !== 'CHO') {
    if (choices.length > 0) errors.add('choices', questionMessages.choicesNotTaken)
    return sent
  }
  if (choices.length === 0) {
    errors.add('choices', questionMessages.choicesNeeded)
    return sent
  }
  // A choice of spaces only is blank once trimmed, as "" is by the schema: reported alone, the same.
  if (sent?.includes('')) {
    errors.add('choices', messages.blank)
    return sent
  }
  const seen = new Set<string>()
  const repeated = new Set<string>()
  for (const choice of sent ?? []) {
    if (seen.has(choice)) repeated.add(choice)
    seen.add(choice)
  }
  for (const choice of repeated) errors.add('choices', questionMessages.choiceTwice(choice))
  return sent
}

/** A new question of `eventTypeId`: free text, optional, active and sorted at 0 unless told. */
export async function createEventQuestion(
  deps: Pick<Deps, 'db' | 'clock'>,
  eventTypeId: number,
  body: CheckedBody<QuestionInput>,
): Promise<number> {
  const choices = checkChoices(body.fields, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return insertEventQuestion(deps.db, {
    event_type_id: eventTypeId,
    text: input.text,
    kind: input.kind ?? 'TXT',
    choices: JSON.stringify(choices ?? []),
    is_required: toFlag(input.is_required) ?? 0,
    sort_order: input.sort_order ?? 0,
    is_active: toFlag(input.is_active) ?? 1,
    created_at: now,
    updated_at: now,
  })
}

/** PUT/PATCH: the fields sent change; the question stays with its event type. */
export async function changeEventQuestion(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: EventQuestionRow,
  body: CheckedBody<Partial<QuestionInput>>,
): Promise<void> {
  const choices = checkChoices(body.fields, body.errors, row)
  const input = body.valid()
  await updateEventQuestion(deps.db, row.id, {
    text: input.text,
    kind: input.kind,
    choices: choices && JSON.stringify(choices),
    is_required: toFlag(input.is_required),
    sort_order: input.sort_order,
    is_active: toFlag(input.is_active),
    updated_at: deps.clock.now().toISOString(),
  })
}
