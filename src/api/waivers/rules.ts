import type { Static } from 'elysia'
import { DateTime } from 'luxon'
import { insertDocument, insertDocumentFile } from '../customer-documents/queries.ts'
import { insertCustomer, updateCustomer } from '../customers/queries.ts'
import { loadOrganization } from '../organization/queries.ts'
import { getCurrentWaiverText, getWaiverText, type WaiverTextRow } from '../waiver-texts/queries.ts'
import { insertWaiverSignature, listCustomersBornOn, type NamesakeRow } from './queries.ts'
import { SIGNATURE_MAX_PIXELS, type WaiverSign } from './schema.ts'
import { makeWaiverPdf } from '../../core/waivers/pdf.ts'
import type { Db } from '../../db/connection.ts'
import type { Deps } from '../../deps.ts'
import { messages, ValidationError, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'
import { addDays, localDate, localDateTime } from '../../lib/local-time.ts'
import { inkPixels, PngError, readPng } from '../../lib/png.ts'

type SignInput = Static<typeof WaiverSign>

/** The age from which a customer signs for themselves. */
export const ADULT_AGE = 18
/** Fewer dark pixels than this is an empty box, or a tap: no signature. */
export const MIN_INK_PIXELS = 64
const OLDEST_BIRTHDAY = '1900-01-01'

export const waiverMessages = {
  stale: (current: number) =>
    `The waiver text changed while it was being read: version ${current} is current. Read it and sign again.`,
  guardianNeeded: 'A parent or guardian signs for a customer under 18: enter their name.',
  guardianForAdult: 'Only a customer under 18 signs with a guardian: leave this empty.',
  notADataUrl: 'Sign with a PNG image sent as a data URL (data:image/png;base64,...).',
  notAPng: 'The signature is not a valid PNG image.',
  tooLarge: `The signature image has more than ${SIGNATURE_MAX_PIXELS} pixels.`,
  blank: 'The signature is blank: sign in the box.',
}

/** Under 18 on `today` (both YYYY-MM-DD): born fewer than 18 years before. A 29 February birthday comes of age on 28 February. */
export function isMinorOn(birthday: string, today: string): boolean {
  return DateTime.fromISO(birthday, { zone: 'utc' }).plus({ years: ADULT_AGE }).toISODate()! > today
}

/** The last day a waiver signed on `signedOn` is valid, or null: it never expires. */
export const waiverExpiration = (signedOn: string, validForDays: number | null): string | null =>
  validForDays === null ? null : addDays(signedOn, validForDays)

const DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]*={0,2})$/

/** The signature's PNG bytes, or an error on `signature`. */
function readSignature(value: string | undefined, errors: FieldErrorCollector): Uint8Array | null {
  if (value === undefined || errors.has('signature')) return null
  const match = DATA_URL.exec(value)
  if (!match || match[1]!.length % 4 !== 0) {
    errors.add('signature', waiverMessages.notADataUrl)
    return null
  }
  const bytes = new Uint8Array(Buffer.from(match[1]!, 'base64'))
  try {
    const image = readPng(bytes, SIGNATURE_MAX_PIXELS)
    if (inkPixels(image) < MIN_INK_PIXELS) errors.add('signature', waiverMessages.blank)
    return bytes
  } catch (error) {
    if (!(error instanceof PngError)) throw error
    errors.add(
      'signature',
      error.message === 'too many pixels' ? waiverMessages.tooLarge : waiverMessages.notAPng,
    )
    return null
  }
}

/** The version named, if it exists and is the current one; otherwise an error on the field. */
async function readVersion(db: Db, version: number | undefined, errors: FieldErrorCollector) {
  if (version === undefined || errors.has('waiver_text_version')) return undefined
  const named = await getWaiverText(db, version)
  if (!named) {
    errors.add('waiver_text_version', messages.doesNotExist(version))
    return undefined
  }
  if (named.id !== named.current_id) errors.add('waiver_text_version', waiverMessages.stale(named.current_id))
  return named
}

const sameName = (a: string, b: string) =>
  a.normalize('NFC').toLocaleLowerCase() === b.normalize('NFC').toLocaleLowerCase()

/**
 * The customer a signing is for: one with the same first and last name (in any case) and birthday.
 * Of several, the active one, then the one who checked in last, then the newest: a tablet cannot
 * ask the customer which record is theirs, and the desk merges duplicates afterwards.
 */
function chooseNamesake(rows: NamesakeRow[], input: SignInput): NamesakeRow | undefined {
  const matches = rows.filter(
    (r) => sameName(r.first_name, input.first_name) && sameName(r.last_name, input.last_name),
  )
  return matches.sort(
    (a, b) =>
      b.is_active - a.is_active ||
      (b.last_check_in_at ?? '').localeCompare(a.last_check_in_at ?? '') ||
      b.id - a.id,
  )[0]
}

export interface SignedWaiver {
  customerId: number
  customerCreated: boolean
  /** The names on the customer's record: a matched customer keeps theirs as the desk spelled them. */
  customerFirstName: string
  customerLastName: string
  documentId: number
  isMinor: boolean
  guardianName: string
  version: number
  signedAt: string
  /** The organization's today when it was signed, for the document's computed fields. */
  today: string
}

/**
 * Signs the current waiver text for the customer the answers name (found by name and birthday, or
 * created with their email and phone), storing the PDF as their waiver document. Everything is
 * checked first and the PDF made before one short transaction writes the customer, the document,
 * its file and the signing together, or nothing.
 */
export async function signWaiver(
  deps: Pick<Deps, 'db' | 'clock'>,
  body: CheckedBody<SignInput>,
  staffUserId: number,
): Promise<SignedWaiver> {
  const { fields, errors } = body
  const org = await loadOrganization(deps.db)
  const now = deps.clock.now()
  const today = localDate(now, org.time_zone)
  const text = await readVersion(deps.db, fields.waiver_text_version, errors)
  let minor = false
  if (fields.birthday !== undefined && !errors.has('birthday')) {
    if (fields.birthday > today) errors.add('birthday', messages.max(today))
    else if (fields.birthday < OLDEST_BIRTHDAY) errors.add('birthday', messages.min(OLDEST_BIRTHDAY))
    else {
      minor = isMinorOn(fields.birthday, today)
      const guardian = fields.guardian_name ?? ''
      if (!errors.has('guardian_name')) {
        if (minor && guardian === '') errors.add('guardian_name', waiverMessages.guardianNeeded)
        if (!minor && guardian !== '') errors.add('guardian_name', waiverMessages.guardianForAdult)
      }
    }
  }
  const signature = readSignature(fields.signature, errors)
  const input = body.valid()
  const version = text as WaiverTextRow
  const png = signature as Uint8Array

  const email = input.email ?? ''
  const guardianName = input.guardian_name ?? ''
  const expirationDate = waiverExpiration(today, version.valid_for_days)
  const signedAt = now.toISOString()
  const pdf = await makeWaiverPdf({
    organizationName: org.name,
    version: version.id,
    text: version.text,
    firstName: input.first_name,
    lastName: input.last_name,
    birthday: input.birthday,
    email,
    telephone: input.telephone,
    guardianName,
    signedAtLocal: localDateTime(now, org.time_zone).slice(0, 16).replace('T', ' '),
    timeZone: org.time_zone,
    signedAt: now,
    expirationDate,
    signaturePng: png,
  })

  return deps.db.transaction().execute(async (trx) => {
    // An admin may have written a new version since the check above: the later one wins.
    const current = await getCurrentWaiverText(trx)
    if (current && current.id !== version.id)
      throw ValidationError.field('waiver_text_version', waiverMessages.stale(current.id))
    const namesake = chooseNamesake(await listCustomersBornOn(trx, input.birthday), input)
    let customerId: number
    if (namesake) {
      customerId = namesake.id
      // Contact details the record lacks are filled in; ones it has are the desk's to change.
      await updateCustomer(trx, customerId, {
        email: namesake.email === null && email !== '' ? email : undefined,
        telephone: namesake.telephone === '' ? input.telephone : undefined,
        updated_at: namesake.email === null || namesake.telephone === '' ? signedAt : undefined,
      })
    } else {
      customerId = await insertCustomer(trx, {
        first_name: input.first_name,
        last_name: input.last_name,
        preferred_name: '',
        email: email === '' ? null : email,
        telephone: input.telephone,
        birthday: input.birthday,
        barcode: null,
        is_active: 1,
        home_location_id: null,
        address_street_1: '',
        address_street_2: '',
        address_city: '',
        address_state: '',
        address_postcode: '',
        address_country: '',
        profile_image_url: '',
        first_check_in_timestamp: null,
        created_at: signedAt,
        updated_at: signedAt,
      })
    }
    const documentId = await insertDocument(trx, {
      customer_id: customerId,
      name: `Waiver (version ${version.id})`,
      kind: 'waiver',
      expiration_date: expirationDate,
      created_at: signedAt,
      updated_at: signedAt,
    })
    await insertDocumentFile(trx, { document_id: documentId, content_type: 'application/pdf', content: pdf })
    await insertWaiverSignature(trx, {
      document_id: documentId,
      waiver_text_id: version.id,
      first_name: input.first_name,
      last_name: input.last_name,
      birthday: input.birthday,
      email,
      telephone: input.telephone,
      guardian_name: guardianName,
      signed_at: signedAt,
      staff_user_id: staffUserId,
    })
    return {
      customerId,
      customerCreated: namesake === undefined,
      customerFirstName: namesake?.first_name ?? input.first_name,
      customerLastName: namesake?.last_name ?? input.last_name,
      documentId,
      isMinor: minor,
      guardianName,
      version: version.id,
      signedAt,
      today,
    }
  })
}
