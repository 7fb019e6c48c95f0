import { inflateSync } from 'node:zlib'

/** The eight bytes every PNG file opens with. */
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Bytes per pixel of the 8-bit colour types: greyscale, RGB, greyscale and alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 }

export interface PngImage {
  width: number
  height: number
  /** One byte per channel, rows top to bottom, the filters undone. */
  pixels: Uint8Array
  /** 1 (grey), 2 (grey, alpha), 3 (RGB) or 4 (RGBA). */
  channels: number
}

/** Why a PNG was not read: not one at all, or one this reader does not take. */
export class PngError extends Error {}

/**
 * Reads a non-interlaced 8-bit PNG (greyscale, RGB, either with alpha: what a canvas exports) into
 * its pixels. Refuses anything larger than `maxPixels` before inflating it, so a small file cannot
 * unpack into a huge one.
 */
export function readPng(bytes: Uint8Array, maxPixels: number): PngImage {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) throw new PngError('not a PNG')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let offset = 8
  let header: { width: number; height: number; depth: number; colour: number; interlace: number } | undefined
  const data: Uint8Array[] = []
  let ended = false
  while (offset + 12 <= bytes.length) {
    const length = view.getUint32(offset)
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8))
    const start = offset + 8
    if (start + length + 4 > bytes.length) throw new PngError('a chunk runs past the end')
    const chunk = bytes.subarray(start, start + length)
    if (type === 'IHDR' && length === 13) {
      header = {
        width: view.getUint32(start),
        height: view.getUint32(start + 4),
        depth: chunk[8]!,
        colour: chunk[9]!,
        interlace: chunk[12]!,
      }
    } else if (type === 'IDAT') data.push(chunk)
    else if (type === 'IEND') {
      ended = true
      break
    }
    offset = start + length + 4
  }
  if (!header || !ended || data.length === 0) throw new PngError('missing IHDR, IDAT or IEND')
  const { width, height } = header
  const channels = CHANNELS[header.colour]
  if (header.depth !== 8 || channels === undefined || header.interlace !== 0)
    throw new PngError('not an 8-bit non-interlaced greyscale or RGB(A) PNG')
  if (width === 0 || height === 0 || width * height > maxPixels) throw new PngError('too many pixels')
  const stride = width * channels
  let raw: Buffer
  try {
    raw = inflateSync(Buffer.concat(data), { maxOutputLength: (stride + 1) * height })
  } catch {
    throw new PngError('the image data does not inflate')
  }
  if (raw.length !== (stride + 1) * height) throw new PngError('the image data has the wrong size')
  return { width, height, channels, pixels: unfilter(raw, stride, height, channels) }
}

/** Undoes each row's filter (PNG's filter method 0: None, Sub, Up, Average, Paeth). */
function unfilter(raw: Uint8Array, stride: number, height: number, bpp: number): Uint8Array {
  const out = new Uint8Array(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    const at = y * stride
    for (let x = 0; x < stride; x++) {
      const left = x >= bpp ? out[at + x - bpp]! : 0
      const up = y > 0 ? out[at - stride + x]! : 0
      const upLeft = y > 0 && x >= bpp ? out[at - stride + x - bpp]! : 0
      let predictor: number
      switch (filter) {
        case 0:
          predictor = 0
          break
        case 1:
          predictor = left
          break
        case 2:
          predictor = up
          break
        case 3:
          predictor = (left + up) >> 1
          break
        case 4: {
          const p = left + up - upLeft
          const pa = Math.abs(p - left)
          const pb = Math.abs(p - up)
          const pc = Math.abs(p - upLeft)
          predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
          break
        }
        default:
          throw new PngError('an unknown row filter')
      }
      out[at + x] = (row[x]! + predictor) & 0xff
    }
  }
  return out
}

/**
 * How many pixels are ink: opaque enough to see and dark enough to tell from paper (a signature
 * drawn dark on a transparent or white ground).
 */
export function inkPixels(image: PngImage): number {
  const { pixels, channels } = image
  const hasAlpha = channels === 2 || channels === 4
  const colours = hasAlpha ? channels - 1 : channels
  let ink = 0
  for (let i = 0; i < pixels.length; i += channels) {
    if (hasAlpha && pixels[i + channels - 1]! < 128) continue
    let sum = 0
    for (let c = 0; c < colours; c++) sum += pixels[i + c]!
    if (sum / colours < 160) ink++
  }
  return ink
}
