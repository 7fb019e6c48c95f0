import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'

/** What a signed waiver's PDF says: the text signed, the answers, and when and how it was signed. */
export interface WaiverPdfInput {
  organizationName: string
  version: number
  text: string
  firstName: string
  lastName: string
  birthday: string
  email: string
  telephone: string
  /** Who signed for a customer under 18; '' for an adult, who signs for themselves. */
  guardianName: string
  /** The signing time on the organization's clock ("2026-11-22 08:04"), and its zone. */
  signedAtLocal: string
  timeZone: string
  signedAt: Date
  /** The last day it is valid, or null: never expires. */
  expirationDate: string | null
  /** The signature as PNG bytes, drawn in the box below the answers. */
  signaturePng: Uint8Array
}

// US Letter, in points, with one-inch margins.
const PAGE: [number, number] = [612, 792]
const MARGIN = 72
const TEXT_SIZE = 10.5
const LINE = 14
const SIGNATURE_BOX = { width: 300, height: 110 }

/**
 * The signed waiver as a PDF: the organization's text (its version), the signer's answers, the
 * guardian for a minor, the time signed on the organization's clock, and the signature image. Its
 * title names the signer and the version, so a file browser shows whose it is.
 *
 * The standard Helvetica font carries Latin-1-like letters only (WinAnsi); another letter is printed
 * without its accent where it has one, else as "?", and the customer's record keeps the exact name.
 */
export async function makeWaiverPdf(input: WaiverPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const printable = printableIn(font)
  const signer = `${input.firstName} ${input.lastName}`
  // The document's information is Unicode text: the names as typed.
  doc.setTitle(`Waiver version ${input.version} signed by ${signer}`)
  doc.setAuthor(input.guardianName || signer)
  doc.setSubject(`${input.organizationName} waiver, version ${input.version}`)
  doc.setCreator('Belay')
  doc.setProducer('Belay')
  doc.setCreationDate(input.signedAt)
  doc.setModificationDate(input.signedAt)

  const writer = new PageWriter(doc)
  const write = (text: string, options: { font?: PDFFont; size?: number } = {}) =>
    writer.paragraph(printable(text), options.font ?? font, options.size ?? TEXT_SIZE)

  write(`${input.organizationName}: waiver`, { font: bold, size: 16 })
  write(`Waiver text, version ${input.version}`, { font: bold })
  writer.gap()
  for (const paragraph of input.text.replace(/\r\n?/g, '\n').split('\n')) {
    if (paragraph.trim() === '') writer.gap()
    else write(paragraph)
  }
  writer.gap()
  write('Signed by', { font: bold, size: 12 })
  const answers: Array<[string, string]> = [
    [input.guardianName ? 'Participant (under 18)' : 'Name', signer],
    ['Birthday', input.birthday],
    ['Email', input.email || '(none given)'],
    ['Telephone', input.telephone],
  ]
  if (input.guardianName)
    answers.push(['Signed for the participant by their parent or guardian', input.guardianName])
  answers.push(['Signed at', `${input.signedAtLocal} (${input.timeZone})`])
  answers.push(['Valid through', input.expirationDate ?? 'does not expire'])
  for (const [label, value] of answers) write(`${label}: ${value}`)
  writer.gap()

  const png = await doc.embedPng(input.signaturePng)
  const scale = Math.min(SIGNATURE_BOX.width / png.width, SIGNATURE_BOX.height / png.height, 1)
  const page = writer.room(SIGNATURE_BOX.height + LINE * 2)
  const top = writer.y
  page.drawRectangle({
    x: MARGIN,
    y: top - SIGNATURE_BOX.height,
    width: SIGNATURE_BOX.width,
    height: SIGNATURE_BOX.height,
    borderColor: rgb(0.6, 0.6, 0.6),
    borderWidth: 0.75,
  })
  page.drawImage(png, {
    x: MARGIN,
    y: top - png.height * scale,
    width: png.width * scale,
    height: png.height * scale,
  })
  writer.y = top - SIGNATURE_BOX.height - LINE
  write(`Signature of ${input.guardianName || signer}`)
  return doc.save()
}

/** Lays lines top to bottom, starting a new page when one is full. */
class PageWriter {
  private page: PDFPage
  y = PAGE[1] - MARGIN

  constructor(private readonly doc: PDFDocument) {
    this.page = doc.addPage(PAGE)
  }

  /** The current page, after starting a new one unless `height` points are left on this one. */
  room(height: number): PDFPage {
    if (this.y - height < MARGIN) {
      this.page = this.doc.addPage(PAGE)
      this.y = PAGE[1] - MARGIN
    }
    return this.page
  }

  gap(): void {
    this.y -= LINE / 2
  }

  /** `text` broken into lines at spaces to fit the margins (a word longer than a line is cut). */
  paragraph(text: string, font: PDFFont, size: number): void {
    const width = PAGE[0] - 2 * MARGIN
    const lineHeight = Math.max(LINE, size * 1.3)
    for (const line of wrap(text, (s) => font.widthOfTextAtSize(s, size), width)) {
      const page = this.room(lineHeight)
      this.y -= lineHeight
      page.drawText(line, { x: MARGIN, y: this.y, size, font, color: rgb(0, 0, 0) })
    }
  }
}

/** Words into lines no wider than `width`; a word wider than a line alone is cut where it must be. */
export function wrap(text: string, widthOf: (s: string) => number, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`
    if (widthOf(candidate) <= width) {
      line = candidate
      continue
    }
    if (line !== '') lines.push(line)
    let rest = word
    while (widthOf(rest) > width) {
      let cut = rest.length - 1
      while (cut > 1 && widthOf(rest.slice(0, cut)) > width) cut--
      lines.push(rest.slice(0, cut))
      rest = rest.slice(cut)
    }
    line = rest
  }
  if (line !== '') lines.push(line)
  return lines
}

/** Latin letters with a stroke, which Unicode does not decompose into a letter and a mark. */
const STROKED: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŧ: 'T',
  ŧ: 't',
}

/** A text made printable in `font`: letters it lacks lose their accents or strokes, or become "?". */
function printableIn(font: PDFFont): (text: string) => string {
  const known = new Set(font.getCharacterSet())
  const one = (ch: string): string => {
    if (known.has(ch.codePointAt(0)!)) return ch
    const bare = STROKED[ch] ?? ch.normalize('NFKD').replace(/\p{M}/gu, '')
    return bare !== '' && [...bare].every((c) => known.has(c.codePointAt(0)!)) ? bare : '?'
  }
  return (text) => [...text.replace(/\t/g, ' ')].map(one).join('')
}
