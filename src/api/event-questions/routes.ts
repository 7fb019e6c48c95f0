import { changeEventQuestion, createEventQuestion } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { collectionRoutes } from '../../http/crud.ts'
import { defineFilters } from '../../http/filters.ts'
import { eventTypeExists, getEventQuestion, listEventQuestions } from './queries.ts'
import { EventQuestionOut, EventQuestionWrite } from './schema.ts'
import { serializeEventQuestion } from './serializer.ts'

const CHOICE_RULES = [
  '`kind` is `TXT` (free text, the default), `BOO` (yes or no) or `CHO` (one of `choices`). A `CHO`',
  'question needs at least one choice (`A choice question (CHO) needs at least one choice.`), a `TXT`',
  'or `BOO` one takes none (`Only a choice question (CHO) takes choices.`); each choice is trimmed,',
  'not blank (`This field may not be blank.`) and named once (`"Red" is listed more than once.`), all',
  'on `choices`.',
].join(' ')

const CHANGE_RULES = [
  CHOICE_RULES,
  'Left out, `kind` and `choices` keep their stored values, and are judged together as the question',
  'will be: turning a `CHO` question into another kind sends `choices: []` with it. There is no',
  'DELETE: deactivate a question with `is_active: false` (it is no longer asked; the answers already',
  'given keep naming it).',
].join(' ')

/**
 * /api/event-types/<id>/questions/: what a booking of the type's events answers. The event type's
 * own routes know its id as `:id`, so this collection names it so too, and its own as `:question_id`.
 */
export const eventQuestionRoutes = (deps: Deps) =>
  collectionRoutes(deps, {
    path: '/api/event-types/:id/questions',
    parent: {
      param: 'id',
      description: "The event type's id",
      exists: (deps, id) => eventTypeExists(deps.db, id),
    },
    idParam: 'question_id',
    tag: 'Event types',
    noun: 'event question',
    read: 'staff',
    write: 'can_manage_events',
    descriptions: {
      list: [
        "The event type's questions in the order they are asked: ascending `sort_order`, then id.",
        'Inactive ones are listed too unless filtered by `is_active`.',
      ].join(' '),
      create: CHOICE_RULES,
      replace: CHANGE_RULES,
      update: CHANGE_RULES,
    },
    filters: defineFilters({ is_active: 'bool' }),
    output: EventQuestionOut,
    list: ({ deps, parentId }, filters) => listEventQuestions(deps.db, parentId, filters),
    get: ({ deps, parentId }, id) => getEventQuestion(deps.db, parentId, id),
    serialize: serializeEventQuestion,
    create: {
      body: EventQuestionWrite,
      run: ({ deps, parentId }, body) => createEventQuestion(deps, parentId, body),
    },
    replace: { body: EventQuestionWrite, run: ({ deps }, row, body) => changeEventQuestion(deps, row, body) },
  })
