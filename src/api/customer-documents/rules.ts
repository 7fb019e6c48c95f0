import type { Static } from 'elysia'
import { getDocumentFile, insertDocument, insertDocumentFile } from './queries.ts'
import type { DocumentCreate } from './schema.ts'
import type { Deps } from '../../deps.ts'
import { notFound, type FieldErrorCollector } from '../../http/errors.ts'
import type { CheckedBody } from '../../http/validation.ts'

type DocumentInput = Static<typeof DocumentCreate>

export const PDF_CONTENT_TYPE = 'application/pdf'

/** A PDF opens with its header and version (`%PDF-1.7`, `%PDF-2.0`). */
const PDF_HEADER = /^%PDF-\d\.\d/
/** A PDF ends with `%%EOF`; readers look for it in the last KiB, past a scanner's padding. */
const PDF_END = '%%EOF'
const PDF_END_WITHIN_BYTES = 1024
/**
 * The opening of an HTML, SVG or script element, which a browser that sniffed the file would run in
 * the API's origin (the tag name followed by white space, `>` or `/`, as the sniffing standard
 * reads a tag). A PDF has no use for one outside its compressed streams.
 */
const ACTIVE_MARKUP = /<(?:!doctype\s+html|html|head|body|script|iframe|svg|object|embed)[\s>/]/i

// DRF's FileField wording for a value that is no file and for an empty one; its ImageField's for the rest.
export const notAFile = 'The submitted data was not a file. Check the encoding type on the form.'
export const emptyFile = 'The submitted file is empty.'
export const notAPdf = 'Upload a valid PDF. The file you uploaded was either not a PDF or a corrupted PDF.'

/**
 * Whether `bytes` read as a PDF that nothing can read as a web page: the header at the start, the
 * end marker at the end, and no HTML, SVG or script markup anywhere. A file that merely starts
 * `%PDF-` may carry a page that runs script when opened in a browser.
 */
function isPdf(bytes: Uint8Array): boolean {
  // Latin-1 keeps one character per byte, so the markers match wherever they are.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  return (
    PDF_HEADER.test(text) &&
    text.includes(PDF_END, Math.max(0, text.length - PDF_END_WITHIN_BYTES)) &&
    !ACTIVE_MARKUP.test(text)
  )
}

/** The bytes of an uploaded `pdf` part, null when none was sent, or an error on `pdf`. */
async function readPdf(upload: unknown, errors: FieldErrorCollector): Promise<Uint8Array | null> {
  if (upload === undefined || upload === null) return null
  if (!(upload instanceof Blob)) {
    errors.add('pdf', notAFile)
    return null
  }
  const bytes = new Uint8Array(await upload.arrayBuffer())
  if (bytes.length === 0) errors.add('pdf', emptyFile)
  else if (!isPdf(bytes)) errors.add('pdf', notAPdf)
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
