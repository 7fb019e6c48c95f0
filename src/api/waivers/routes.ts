import { Elysia, t } from 'elysia'
import { signWaiver, waiverMessages } from './rules.ts'
import { getDocument } from '../customer-documents/queries.ts'
import { DocumentOut } from '../customer-documents/schema.ts'
import { serializeDocument } from '../customer-documents/serializer.ts'
import type { Deps } from '../../deps.ts'
import { authenticated } from '../../http/auth.ts'
import { docs, named, paragraphs } from '../../http/docs.ts'
import { requires, whoMay } from '../../http/permissions.ts'
import { checkBody } from '../../http/validation.ts'
import { WaiverSign, WaiverSigned } from './schema.ts'

const signDocs = docs({
  tag: 'Waiver texts',
  summary: 'Sign the current waiver on the desk’s tablet',
  description: whoMay(
    'can_manage_members',
    paragraphs(
      [
        "The waiver screen posts here, in the desk's own session: the customer has read the current",
        'waiver text, answered, and signed with a finger or mouse. The box makes a PDF of the text',
        '(its version), the answers, the guardian for a minor, the time signed on the organization’s',
        'clock and the signature image, and stores it as the customer’s waiver document (kind',
        '`waiver`, its `pdf` link), valid through `valid_for_days` after today (the organization’s',
        "zone), or forever when the version has none. The door's “has a usable waiver” reads it from then on.",
      ],
      [
        'The customer is the one with the same first and last name (in any case) and birthday;',
        'of several, the active one, then the one who checked in last, then the newest. Their email',
        'and telephone are filled in where the record has none, never overwritten. With no match a',
        'customer is created with these answers (`customer_created`). The customer, the document,',
        'its PDF and the record of the signing are written together or not at all.',
      ],
      [
        '`waiver_text_version` that is not the current version is',
        `\`${waiverMessages.stale(4).replace('4', '<current>')}\` (the text changed while the customer`,
        'read it; this also holds when an admin adds a version while the signing is being written),',
        'and one that does not exist `Invalid pk "<n>" - object does not exist.`.',
        "A participant under 18 on the organization's today needs `guardian_name`:",
        `\`${waiverMessages.guardianNeeded}\`; an adult's must be empty: \`${waiverMessages.guardianForAdult}\`.`,
        '`birthday` is neither after today (`Ensure this value is less than or equal to <today>.`) nor before 1900-01-01.',
      ],
      [
        `\`signature\` that is no PNG data URL is \`${waiverMessages.notADataUrl}\`; one whose bytes are`,
        `no 8-bit non-interlaced PNG \`${waiverMessages.notAPng}\`; a larger one \`${waiverMessages.tooLarge}\`;`,
        `one with hardly any dark pixels \`${waiverMessages.blank}\`. Every refusal writes nothing.`,
      ],
      [
        'The PDF prints in a standard font: a letter outside Latin-1 is printed without its accent, or as',
        '"?"; the customer record keeps the name as typed.',
      ],
    ),
  ),
  body: named('WaiverSign', WaiverSign),
  ok: {
    status: 201,
    // The document under the name the documents' own routes give it.
    schema: named(
      'WaiverSigned',
      t.Object(
        { ...WaiverSigned.properties, document: named('CustomerDocument', DocumentOut) },
        { description: WaiverSigned.description },
      ),
    ),
  },
})

/** POST /api/waivers/sign/: a waiver signed on the desk's tablet becomes the customer's waiver document. */
export const waiverRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/waivers' }).use(authenticated(deps)).post(
    '/sign/',
    async ({ body, user, urls, set }) => {
      const signed = await signWaiver(deps, checkBody(WaiverSign, body), user.id)
      const document = (await getDocument(deps.db, signed.customerId, signed.documentId, signed.today))!
      set.status = 201
      return {
        customer_id: signed.customerId,
        customer_url: urls.abs('/api/customers', signed.customerId),
        customer_first_name: signed.customerFirstName,
        customer_last_name: signed.customerLastName,
        customer_created: signed.customerCreated,
        is_minor: signed.isMinor,
        guardian_name: signed.guardianName,
        waiver_text_version: signed.version,
        signed_at: signed.signedAt,
        document: serializeDocument(document, urls),
      }
    },
    { ...requires('can_manage_members'), ...signDocs },
  )
