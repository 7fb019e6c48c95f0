import { changeEmergencyContact, createEmergencyContact } from './rules.ts'
import type { Deps } from '../../deps.ts'
import { customerRecordRoutes } from '../customer-records/collection.ts'
import { getEmergencyContact, listEmergencyContacts } from './queries.ts'
import { EmergencyContactOut, EmergencyContactWrite } from './schema.ts'
import { serializeEmergencyContact } from './serializer.ts'

/** /api/customers/<customer_id>/emergency-contacts/. No DELETE: the API offers none. */
export const customerEmergencyContactRoutes = (deps: Deps) =>
  customerRecordRoutes(deps, {
    name: 'emergency-contacts',
    noun: 'customer emergency contact',
    descriptions: {
      create: '`email` is a valid address or `""`. There is no DELETE.',
    },
    output: EmergencyContactOut,
    list: listEmergencyContacts,
    get: getEmergencyContact,
    serialize: serializeEmergencyContact,
    create: { body: EmergencyContactWrite, run: createEmergencyContact },
    replace: { body: EmergencyContactWrite, run: changeEmergencyContact },
  })
