import { ValidationError } from '../../http/errors.ts'

/** A desk camera's still is a few hundred KiB; a phone's full-size photo fits too. */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024

// DRF's FileField and ImageField wording, on the `photo` part.
export const photoMessages = {
  missing: 'No file was submitted.',
  notAFile: 'The submitted data was not a file. Check the encoding type on the form.',
  empty: 'The submitted file is empty.',
  notAnImage: 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
  tooLarge: `The photo may be at most ${MAX_PHOTO_BYTES / 1024 / 1024} MiB.`,
}

/**
 * The image kinds a browser's camera capture and a phone give, told by their opening bytes (never by
 * the name or type the client claims). SVG is not among them: it is a document that can run script.
 */
const IMAGE_SIGNATURES: { type: string; matches(bytes: Uint8Array): boolean }[] = [
  { type: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: 'image/png',
    matches: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => b[i] === byte),
  },
  {
    type: 'image/webp',
    matches: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP',
  },
]

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to))

/** The `photo` part of an upload as an image to keep, or the DRF field error that says why not. */
export async function readPhoto(body: unknown): Promise<{ content_type: string; content: Uint8Array }> {
  const checked = await checkPhoto((body ?? {}) as Record<string, unknown>)
  if (typeof checked === 'string') throw ValidationError.field('photo', checked)
  return checked
}

async function checkPhoto(upload: Record<string, unknown>) {
  const part = upload.photo
  if (part === undefined || part === null || part === '') return photoMessages.missing
  if (!(part instanceof Blob)) return photoMessages.notAFile
  const content = new Uint8Array(await part.arrayBuffer())
  if (content.length === 0) return photoMessages.empty
  if (content.length > MAX_PHOTO_BYTES) return photoMessages.tooLarge
  const kind = IMAGE_SIGNATURES.find((signature) => signature.matches(content))
  if (kind === undefined) return photoMessages.notAnImage
  return { content_type: kind.type, content }
}
