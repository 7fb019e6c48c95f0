import type { Selectable } from 'kysely'
import type { CustomerMedicalNoteTable } from '../../db/schema.ts'
import { customerRecordReads, customerRecordWrites } from '../customer-records/queries.ts'

export type MedicalNoteRow = Selectable<CustomerMedicalNoteTable>

export const { list: listMedicalNotes, get: getMedicalNote } = customerRecordReads(
  'customer_medical_notes',
  (query) => query.selectAll(),
)

export const { insert: insertMedicalNote, update: updateMedicalNote } =
  customerRecordWrites('customer_medical_notes')
