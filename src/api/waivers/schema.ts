import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { CustomerWrite } from '../customers/schema.ts'
import { DocumentOut } from '../customer-documents/schema.ts'

/** A PNG of at most 512 KiB, as base64 in a data URL (4 characters per 3 bytes, and its prefix). */
export const SIGNATURE_MAX_LENGTH = 700_000
/** Pixels a signature may have: a 2000 x 1000 canvas, a tablet's box at twice its size. */
export const SIGNATURE_MAX_PIXELS = 2_000_000

/** What the waiver screen sends when the customer signs on the tablet. */
export const WaiverSign = t.Object({
  waiver_text_version: field.integer({
    description: 'The version of the waiver text the customer was shown: it must still be the current one',
  }),
  first_name: CustomerWrite.properties.first_name,
  last_name: CustomerWrite.properties.last_name,
  birthday: field.date({
    description: "The participant's birthday: under 18 on the organization's today needs `guardian_name`",
  }),
  email: CustomerWrite.properties.email,
  telephone: field.text({ maxLength: 50 }),
  guardian_name: t.Optional(
    field.text({
      blank: true,
      maxLength: 150,
      description: 'The parent or guardian who signs for a participant under 18; empty for an adult',
    }),
  ),
  signature: t.String({
    maxLength: SIGNATURE_MAX_LENGTH,
    description: [
      'The signature drawn on the screen, as `data:image/png;base64,...`: an 8-bit PNG (greyscale or',
      `RGB, with or without alpha, not interlaced) of at most ${SIGNATURE_MAX_PIXELS} pixels, drawn`,
      'dark on a white or transparent ground',
    ].join(' '),
  }),
})

export const WaiverSigned = t.Object(
  {
    customer_id: out.id(),
    customer_url: out.url(),
    customer_first_name: t.String(),
    customer_last_name: t.String(),
    customer_created: t.Boolean({
      description: 'True when no customer matched and this signing created one',
    }),
    is_minor: t.Boolean({ description: "Under 18 on the organization's today: a guardian signed" }),
    guardian_name: t.String(),
    waiver_text_version: t.Integer(),
    signed_at: out.datetime(),
    document: DocumentOut,
  },
  { description: 'A waiver signed on the tablet: whose it is, and the customer document it became' },
)
