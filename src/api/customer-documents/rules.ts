import type { Static } from 'elysia'
import { getDocumentFile, insertDocument, insertDocumentFile } from './queries.ts'
import type { DocumentCreate } from './schema.ts'
import type { Deps } from '../../deps.ts'
import { notFound, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'

type DocumentInput = Static<typeof DocumentCreate>

export const PDF_CONTENT_TYPE = 'application/pdf'
/** Every PDF starts with this header; anything else is refused rather than stored and served as one. */
const PDF_MAGIC = new TextEncoder().encode('%PDF-')

// DRF's FileField wording for a value that is no file and for an empty one; its ImageField's for the rest.
export const notAFile = 'The submitted data was not a file. Check the encoding type on the form.'
export const emptyFile = 'The submitted file is empty.'
export const notAPdf = 'Upload a valid PDF. The file you uploaded was either not a PDF or a corrupted PDF.'

const startsWithPdfMagic = (bytes: Uint8Array) =>
  bytes.length >= PDF_MAGIC.length && PDF_MAGIC.every((byte, i) => bytes[i] === byte)

/** The bytes of an uploaded `pdf` part, null when none was sent, or an error on `pdf`. */
async function readPdf(upload: unknown, errors: FieldErrorCollector): Promise<Uint8Array | null> {
  if (upload === undefined || upload === null) return null
  if (!(upload instanceof Blob)) {
    errors.add('pdf', notAFile)
    return null
  }
  const bytes = new Uint8Array(await upload.arrayBuffer())
  if (bytes.length === 0) errors.add('pdf', emptyFile)
  else if (!startsWithPdfMagic(bytes)) errors.add('pdf', notAPdf)
  return bytes
}

/**
 * Records a signed document (a waiver unless `kind` says otherwise) for `customerId`, with its PDF
 * when one was uploaded. The file is kept in the database, so the one file is the whole backup;
 * the record and its file are written together or not at all.
 */
export async function recordDocument(
  deps: Pick<Deps, 'db' | 'clock'>,
  customerId: number,
  body: CheckedBody<DocumentInput>,
  upload: unknown,
): Promise<number> {
  const pdf = await readPdf(upload, body.errors)
  const input = body.valid()
  const now = deps.clock.now().toISOString()
  return deps.db.transaction().execute(async (trx) => {
    const id = await insertDocument(trx, {
      customer_id: customerId,
      name: input.name,
      kind: input.kind ?? 'waiver',
      expiration_date: input.expiration_date ?? null,
      created_at: now,
      updated_at: now,
    })
    if (pdf) await insertDocumentFile(trx, { document_id: id, content_type: PDF_CONTENT_TYPE, content: pdf })
    return id
  })
}

/** The PDF of one customer's document; 404 for no such document or one without a file. */
export async function documentPdf(deps: Pick<Deps, 'db'>, customerId: number, documentId: number) {
  const file = await getDocumentFile(deps.db, customerId, documentId)
  if (!file) throw notFound()
  return file
}
