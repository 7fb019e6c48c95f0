import { changeMedicalNote, createMedicalNote } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { customerRecordRoutes } from '../customer-records/collection.ts'
import { getMedicalNote, listMedicalNotes } from './queries.ts'
import { MedicalNoteOut, MedicalNoteWrite } from './schema.ts'
import { serializeMedicalNote } from './serializer.ts'

/** /api/customers/<customer_id>/medical-notes/. No DELETE: the API offers none. */
export const customerMedicalNoteRoutes = (deps: Deps) =>
  customerRecordRoutes(deps, {
    name: 'medical-notes',
    noun: 'customer medical note',
    descriptions: { create: '`medical_notes` holds the note, and may not be blank. There is no DELETE.' },
    output: MedicalNoteOut,
    list: listMedicalNotes,
    get: getMedicalNote,
    serialize: serializeMedicalNote,
    create: { body: MedicalNoteWrite, run: createMedicalNote },
    replace: { body: MedicalNoteWrite, run: changeMedicalNote },
  })
