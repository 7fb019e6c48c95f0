import { FormatRegistry, Type as t } from '@sinclair/typebox'
import { messages } from '../../http/errors.ts'
import { field, out } from '../../http/fields.ts'

/**
 * DRF's EmailField with allow_blank: "" is "no email" (stored as null), anything else must be one.
 * The registered `email` check builds its validator on each call (tens of microseconds), and a body
 * is checked twice (converted, then validated): the last verdict is kept for the same value.
 */
let lastEmail: { value: string; valid: boolean } | undefined
FormatRegistry.Set('email-or-blank', (value) => {
  if (value === '') return true
  if (lastEmail?.value !== value) lastEmail = { value, valid: FormatRegistry.Get('email')!(value) }
  return lastEmail.valid
})

export const BARCODE_MAX_LENGTH = 128

const text = (maxLength: number) => t.Optional(field.text({ blank: true, maxLength }))

/** Writable on create, PUT and PATCH alike (PUT needs the same required fields as create). */
export const CustomerWrite = t.Object({
  first_name: field.text({ maxLength: 150 }),
  last_name: field.text({ maxLength: 150 }),
  preferred_name: text(150),
  email: t.Optional(
    field.nullable(
      t.String({
        format: 'email-or-blank',
        maxLength: 254,
        'x-drf-message': messages.email,
        description: 'An email address; null or "" for none (read back as null)',
      }),
    ),
  ),
  telephone: text(50),
  birthday: field.date({
    description: "Not after the organization's today, not before 1900-01-01",
  }),
  barcode: t.Optional(
    field.nullable(
      field.text({
        blank: true,
        maxLength: BARCODE_MAX_LENGTH,
        description: `Unique; at most ${BARCODE_MAX_LENGTH} characters; null or "" for none (read back as null)`,
      }),
    ),
  ),
  is_active: t.Optional(field.bool({ description: 'False deactivates the customer (there is no DELETE)' })),
  home_location_id: t.Optional(field.nullable(field.integer({ description: 'A gym id' }))),
  address_street_1: text(255),
  address_street_2: text(255),
  address_city: text(255),
  address_state: text(255),
  address_postcode: text(32),
  address_country: t.Optional(
    field.text({
      blank: true,
      description: 'ISO 3166-1 two-letter country code (any case, stored upper case), or ""',
    }),
  ),
  profile_image_url: t.Optional(
    t.String({
      maxLength: 1000,
      // JSON Schema patterns take no flags; the scheme is matched in any case, as DRF's URLValidator does.
      pattern: '^(|[Hh][Tt][Tt][Pp][Ss]?://\\S+)$',
      'x-drf-message': messages.url,
      description: 'An http(s) URL (the scheme in any case), or ""',
    }),
  ),
})

export const CustomerOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    first_name: t.String(),
    last_name: t.String(),
    preferred_name: t.String(),
    email: t.Union([t.String(), t.Null()]),
    telephone: t.String(),
    birthday: out.date(),
    barcode: t.Union([t.String(), t.Null()]),
    is_active: t.Boolean(),
    home_location_id: t.Union([t.Integer(), t.Null()]),
    home_location_name: t.Union([t.String(), t.Null()]),
    home_location_url: t.Union([out.url(), t.Null()]),
    address_street_1: t.String(),
    address_street_2: t.String(),
    address_city: t.String(),
    address_state: t.String(),
    address_postcode: t.String(),
    address_country: t.String(),
    profile_image_url: t.String(),
    first_check_in_timestamp: t.Union([out.datetime(), t.Null()]),
    has_active_membership: t.Boolean({
      readOnly: true,
      description: [
        'A member, not individually frozen, of a customer membership in an active status (`ACT`,',
        '`IPP` or `PPR`)',
      ].join(' '),
    }),
    active_waiver_exists: t.Boolean({
      readOnly: true,
      description: [
        "Has a waiver document expiring today or later in the organization's zone, or never:",
        "the door asks the same, in its gym's zone, when the organization requires a waiver",
      ].join(' '),
    }),
    latest_waiver_expiration_date: t.Union([out.date(), t.Null()], {
      readOnly: true,
      description:
        'The latest expiration date of the waivers; null when there is no waiver or one never expires',
    }),
    site_conflicts: t.Array(
      t.Object({
        barcode: t.String({ description: 'The barcode this customer lost' }),
        site: t.String({ description: 'The site that gave it to this customer' }),
        kept_by_customer_id: t.Integer({ description: 'The customer who kept it' }),
        kept_by_customer_url: out.url(),
        kept_by_customer_name: t.Union([t.String(), t.Null()], {
          description: 'Their first and last name; null should they not be on this box',
        }),
        detected_at: out.datetime(),
      }),
      {
        readOnly: true,
        description: [
          'On a box that is a site of a hub: the barcodes given to this customer at one site while',
          'another site, cut off from it, gave the same barcode to another customer first. That',
          "customer kept it; this one's was cleared, at every site. Listed while this customer has no",
          'barcode: giving them a new one settles it (the desk shows it among the alerts). `[]` on a',
          'box without a hub; all conflicts are at `/api/sites/conflicts/`.',
        ].join(' '),
      },
    ),
    created_at: out.datetime(),
    updated_at: out.datetime(),
    credits_url: out.url(),
    emergency_contacts_url: out.url(),
    medical_notes_url: out.url(),
    relations_url: out.url(),
    documents_url: out.url(),
    event_vouchers_url: out.url(),
    alerts_url: out.url(),
    check_ins_url: out.url(),
  },
  {
    description: [
      'A customer of the gym, with links to their records. Never deleted: deactivate with',
      '`is_active: false`, so check-ins, memberships and payments keep their customer.',
    ].join(' '),
  },
)
