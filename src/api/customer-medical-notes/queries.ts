import type { Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { CustomerMedicalNoteTable } from '../../db/schema.ts'
import { customerRecordReads, customerRecordWrites } from '../customer-records/queries.ts'

export type MedicalNoteRow = Selectable<CustomerMedicalNoteTable>

export const {
  count: countMedicalNotes,
  list: listMedicalNotes,
  get: getMedicalNote,
} = customerRecordReads<MedicalNoteRow>('customer_medical_notes', (db: Db) =>
  db.selectFrom('customer_medical_notes').selectAll(),
)

export const { insert: insertMedicalNote, update: updateMedicalNote } =
  customerRecordWrites('customer_medical_notes')
