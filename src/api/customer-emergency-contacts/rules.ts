import type { Static } from '@sinclair/typebox'
import { insertEmergencyContact, updateEmergencyContact, type EmergencyContactRow } from './queries.ts'
import type { EmergencyContactWrite } from './schema.ts'
import { plainRecordRules } from '../customer-records/record-rules.ts'

/** Emergency contacts: name and telephone required; email and relation blank unless given. */
export const { create: createEmergencyContact, change: changeEmergencyContact } = plainRecordRules<
  Static<typeof EmergencyContactWrite>,
  EmergencyContactRow
>({ insert: insertEmergencyContact, update: updateEmergencyContact }, { email: '', relation: '' })
