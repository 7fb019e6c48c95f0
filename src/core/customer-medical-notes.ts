import type { Static } from '@sinclair/typebox'
import {
  insertMedicalNote,
  updateMedicalNote,
  type MedicalNoteRow,
} from '../api/customer-medical-notes/queries.ts'
import type { MedicalNoteWrite } from '../api/customer-medical-notes/schema.ts'
import { plainRecordRules } from './customer-records.ts'

/** Medical notes: one non-blank text per note. */
export const { create: createMedicalNote, change: changeMedicalNote } = plainRecordRules<
  Static<typeof MedicalNoteWrite>,
  MedicalNoteRow
>({ insert: insertMedicalNote, update: updateMedicalNote })
