import { Type as t } from '@sinclair/typebox'
import { field, out } from '../../http/fields.ts'
import { choices } from '../../lib/choices.ts'

export const DOCUMENT_KINDS = choices({ waiver: 'Waiver', other: 'Other' })

/** Create: records a signed document (by default a waiver). Documents are never edited afterwards. */
export const DocumentCreate = t.Object({
  name: field.text({ maxLength: 255 }),
  expiration_date: t.Optional(
    field.nullable(
      field.date({
        description:
          'Last day it is valid (organization-local, through the end of the day); null or absent: never expires',
      }),
    ),
  ),
  kind: t.Optional(field.choice(DOCUMENT_KINDS, { description: 'waiver (default) or other' })),
})

/** The same as a multipart/form-data upload, with the signed document's PDF as the `pdf` file part. */
export const DocumentUpload = t.Object({
  ...DocumentCreate.properties,
  pdf: t.Optional(
    t.String({
      format: 'binary',
      description:
        'The signed document as a PDF file, at most 10 MiB: its "%PDF-1.x" header first, "%%EOF" in its last KiB, and no HTML, SVG or script markup anywhere',
    }),
  ),
})

export const DocumentOut = t.Object(
  {
    id: out.id(),
    url: out.url(),
    name: t.String(),
    kind: t.String({ description: 'waiver or other' }),
    pdf: t.Union([out.url(), t.Null()], {
      description: 'Link to the PDF (GET answers application/pdf); null when none was uploaded',
    }),
    expiration_date: t.Union([out.date(), t.Null()]),
    is_expired: t.Boolean({
      readOnly: true,
      description: "Past its expiration date in the organization's zone",
    }),
    created_at: out.datetime(),
    updated_at: out.datetime(),
  },
  {
    description: [
      'A signed document: a waiver (what check-in asks for when the organization requires one) or',
      'another. A waiver is usable through the end of its expiration day, or forever without one.',
    ].join(' '),
  },
)
