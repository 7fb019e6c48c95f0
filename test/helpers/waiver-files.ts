import { deflateSync } from 'node:zlib'
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFPage } from 'pdf-lib'

/** CRC-32 of PNG chunks. */
function crc32(bytes: Uint8Array): number {
  let crc = ~0
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return ~crc >>> 0
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(new TextEncoder().encode(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

/**
 * An 8-bit RGBA PNG of `width` x `height`, transparent, with `ink(x, y)` pixels black: a canvas's
 * export, made without a canvas. Rows use the Sub filter, so the reader's unfiltering is exercised.
 */
export function makePng(width: number, height: number, ink: (x: number, y: number) => boolean): Uint8Array {
  const raw = new Uint8Array((width * 4 + 1) * height)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1)
    raw[row] = 1
    let previous = [0, 0, 0, 0]
    for (let x = 0; x < width; x++) {
      const pixel = ink(x, y) ? [0, 0, 0, 255] : [0, 0, 0, 0]
      for (let c = 0; c < 4; c++) raw[row + 1 + x * 4 + c] = (pixel[c]! - previous[c]!) & 0xff
      previous = pixel
    }
  }
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header.set([8, 6, 0, 0, 0], 8)
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', new Uint8Array(deflateSync(raw))),
    chunk('IEND', new Uint8Array()),
  ]
  return new Uint8Array(Buffer.concat(parts))
}

export const dataUrl = (png: Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString('base64')}`

/** A signature: a thick diagonal stroke across a 300 x 100 box. */
export const SIGNATURE = dataUrl(makePng(300, 100, (x, y) => Math.abs(y - x / 3) < 3))
/** An empty box. */
export const BLANK_SIGNATURE = dataUrl(makePng(300, 100, () => false))

/**
 * The text a PDF shows, page by page, as pdf-lib writes it with a standard font: each `<hex> Tj` in
 * the pages' (deflated) content streams, one line per string.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ title: string | undefined; text: string }> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false })
  const lines: string[] = []
  for (const page of doc.getPages()) lines.push(...pageLines(page))
  return { title: doc.getTitle(), text: lines.join('\n') }
}

function pageLines(page: PDFPage): string[] {
  const contents = page.node.Contents()
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents]
  const lines: string[] = []
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue
    const text = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1')
    for (const match of text.matchAll(/<([0-9A-Fa-f]*)> Tj/g))
      lines.push(Buffer.from(match[1]!, 'hex').toString('latin1'))
  }
  return lines
}
