import type { Static } from '@sinclair/typebox'
import { insertMedicalNote, updateMedicalNote, type MedicalNoteRow } from './queries.ts'
import type { MedicalNoteWrite } from './schema.ts'
import { plainRecordRules } from '../customer-records/record-rules.ts'

/** Medical notes: one non-blank text per note. */
export const { create: createMedicalNote, change: changeMedicalNote } = plainRecordRules<
  Static<typeof MedicalNoteWrite>,
  MedicalNoteRow
>({ insert: insertMedicalNote, update: updateMedicalNote })
