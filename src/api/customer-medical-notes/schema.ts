import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { timestampsOut } from '../customer-records/schema.ts'

export const MedicalNoteWrite = t.Object({
  medical_notes: field.text({ description: 'The note' }),
})

export const MedicalNoteOut = t.Object({
  id: out.id(),
  url: out.url(),
  medical_notes: t.String(),
  ...timestampsOut,
})
