/**
 * Reading CSV text (RFC 4180, and what spreadsheets write besides): fields separated by commas, or
 * by semicolons where the first line has more of them outside quotes than commas (a spreadsheet in a
 * language whose decimal mark is a comma writes those); records ending in CRLF, LF or a lone CR; a
 * field in double quotes may hold separators, line breaks and doubled quotes (`""` is one `"`). A
 * byte order mark before the first field is dropped. Read leniently, as spreadsheets and Python's
 * csv module do: a quote inside an unquoted field is text, and text after a closing quote is kept.
 */

export type CsvSeparator = ',' | ';'

/** A quoted field opened and never closed: the rest of the file would be one field. */
export class CsvUnclosedQuote extends Error {
  constructor(
    /** The record (1 for the first line) whose quoted field is never closed. */
    readonly record: number,
  ) {
    super(`a quoted field in record ${record} is never closed`)
  }
}

const QUOTE = 0x22
const CR = 0x0d
const LF = 0x0a

/**
 * The separator of `text`: a semicolon when its first line holds more of them than commas outside
 * quotes, else a comma.
 */
export function guessSeparator(text: string): CsvSeparator {
  let commas = 0
  let semicolons = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) quoted = !quoted
    else if (quoted) continue
    else if (c === CR || c === LF) break
    else if (c === 0x2c) commas++
    else if (c === 0x3b) semicolons++
  }
  return semicolons > commas ? ';' : ','
}

/**
 * Every record of `text`, each a list of its fields, in order: record n (from 1) is the file's nth
 * line as a spreadsheet shows it (a line break inside quotes stays in its field). An empty line is a
 * record of one empty field; the line break after the last record adds none. Throws
 * CsvUnclosedQuote for a quoted field that runs to the end of the text.
 */
export function readCsv(text: string, separator: CsvSeparator = guessSeparator(text)): string[][] {
  return [...csvRecords(text, separator)]
}

/**
 * The records of `text` as `readCsv` reads them, one at a time: a caller can let each go once read,
 * and stop between two to let other work run. Throws CsvUnclosedQuote when it reaches a quoted field
 * that runs to the end of the text.
 */
export function* csvRecords(
  text: string,
  separator: CsvSeparator = guessSeparator(text),
): Generator<string[], void, undefined> {
  const sep = separator.charCodeAt(0)
  let count = 0
  let fields: string[] = []
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const end = text.length
  if (i >= end) return
  for (;;) {
    // One field, starting at i.
    let value: string
    if (text.charCodeAt(i) === QUOTE) {
      let part = ''
      let from = i + 1
      for (;;) {
        const close = text.indexOf('"', from)
        if (close < 0) throw new CsvUnclosedQuote(count + 1)
        if (text.charCodeAt(close + 1) === QUOTE) {
          part += text.slice(from, close + 1)
          from = close + 2
        } else {
          part += text.slice(from, close)
          i = close + 1
          break
        }
      }
      // Text between the closing quote and the separator is kept, as spreadsheets keep it.
      let j = i
      while (j < end) {
        const c = text.charCodeAt(j)
        if (c === sep || c === CR || c === LF) break
        j++
      }
      value = j > i ? part + text.slice(i, j) : part
      i = j
    } else {
      let j = i
      while (j < end) {
        const c = text.charCodeAt(j)
        if (c === sep || c === CR || c === LF) break
        j++
      }
      value = text.slice(i, j)
      i = j
    }
    fields.push(value)
    if (i >= end) {
      yield fields
      return
    }
    const c = text.charCodeAt(i)
    if (c === sep) {
      i++
      if (i >= end) {
        fields.push('')
        yield fields
        return
      }
      continue
    }
    // A line break: CRLF, LF or a lone CR ends the record.
    yield fields
    count++
    fields = []
    i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1
    if (i >= end) return
  }
}
