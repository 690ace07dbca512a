// The bytes of a download: a small valid file of the type its name says (PDF, DOCX,
// XLSX, PNG, JPEG, CSV, TXT) with a line of text naming the record, padded to exactly
// the listed size in a way the format allows. A pure function of its inputs, so the
// same seed gives the same bytes. Other extensions get seeded bytes behind the format's
// signature, as before.
import { zipSync, zlibSync, type Zippable } from 'fflate'
import { FILE_CHUNK, fileBytes, fileChunks } from '../../core/random.js'

export interface FileSpec {
  /** The board's seed, the kind of download and the record's id: the source of the filler. */
  seed: number
  key: string
  id: number
  filename: string
  /** Exactly this many bytes. */
  size: number
  /** The line of text the file holds, naming the record. */
  label: string
  /** The file's time (`YYYY-MM-DD HH:MM:SS`), for the zip entries' dates. */
  createdAt?: string
}

const FILLER_ALPHABET = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .', 'latin1')

/** `length` printable filler characters, seeded like the file's other bytes. */
function filler(spec: FileSpec, length: number, salt: string): Buffer {
  const noise = fileBytes(spec.seed, `${spec.key}:${salt}`, spec.id, length, '')
  for (let i = 0; i < noise.length; i++) noise[i] = FILLER_ALPHABET[(noise[i] as number) & 63] as number
  return noise
}

/** Filler lines of at most 72 characters, each starting with `prefix`, `length` bytes in all. */
function fillerLines(spec: FileSpec, length: number, prefix: string): Buffer {
  const text = filler(spec, length, 'lines')
  const head = Buffer.from(prefix, 'latin1')
  for (let i = 0; i < length; i += 73) {
    for (let k = 0; k < head.length && i + k < length; k++) text[i + k] = head[k] as number
    const end = Math.min(i + 72, length - 1)
    if (end > i) text[end] = 0x0a
  }
  if (length > 0) text[length - 1] = 0x0a
  return text
}

const xmlEscape = (text: string) => text.replace(/[<>&"]/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot' }[c]};`)

// ---- PDF: one page with one line of Helvetica; the padding is comment lines before the xref

function pdf(spec: FileSpec, padding: number): Buffer {
  // Helvetica's standard encoding is ASCII: other characters become '?'
  const text = spec.label.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)
  const content = `BT /F1 12 Tf 56 780 Td (${text}) Tj ET\n`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    `<< /Title (${text}) /Producer (jobboard-kit) >>`,
  ]
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
  let offset = parts[0]?.length ?? 0
  const offsets: number[] = []
  objects.forEach((body, i) => {
    const object = Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1')
    offsets.push(offset)
    offset += object.length
    parts.push(object)
  })
  // comments are whitespace to a PDF reader; the xref that follows gives the real offsets
  // (and startxref is written in ten digits, so that its length does not move with the padding)
  parts.push(fillerLines(spec, padding, '%'))
  offset += padding
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `)]
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${String(offset).padStart(10, '0')}\n%%EOF\n`
  parts.push(Buffer.from(`${xref.join('\n')}\n${trailer}`, 'latin1'))
  return Buffer.concat(parts)
}

// ---- DOCX and XLSX: Office Open XML packages; the padding is the zip's archive comment,
// and past the 65,535 bytes a comment can hold, a stored part

const CONTENT_TYPES = 'http://schemas.openxmlformats.org/package/2006/content-types'
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships'
const OFFICE_DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

function contentTypes(overrides: Record<string, string>): string {
  const parts = Object.entries(overrides).map(([name, type]) => `<Override PartName="${name}" ContentType="${type}"/>`)
  return (
    `${XML_DECLARATION}<Types xmlns="${CONTENT_TYPES}">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Default Extension="bin" ContentType="application/octet-stream"/>' +
    `${parts.join('')}</Types>`
  )
}

const relationships = (links: Array<[type: string, target: string]>) =>
  `${XML_DECLARATION}<Relationships xmlns="${RELATIONSHIPS}">${links.map(([type, target], i) => `<Relationship Id="rId${i + 1}" Type="${type}" Target="${target}"/>`).join('')}</Relationships>`

function docxParts(label: string): Record<string, string> {
  const main = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
  return {
    '[Content_Types].xml': contentTypes({ '/word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml' }),
    '_rels/.rels': relationships([[`${OFFICE_DOCUMENT}/officeDocument`, 'word/document.xml']]),
    'word/document.xml': `${XML_DECLARATION}<w:document xmlns:w="${main}"><w:body><w:p><w:r><w:t xml:space="preserve">${xmlEscape(label)}</w:t></w:r></w:p></w:body></w:document>`,
  }
}

function xlsxParts(label: string): Record<string, string> {
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
  return {
    '[Content_Types].xml': contentTypes({
      '/xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      '/xl/worksheets/sheet1.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
    }),
    '_rels/.rels': relationships([[`${OFFICE_DOCUMENT}/officeDocument`, 'xl/workbook.xml']]),
    'xl/workbook.xml': `${XML_DECLARATION}<workbook xmlns="${main}" xmlns:r="${OFFICE_DOCUMENT}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': relationships([[`${OFFICE_DOCUMENT}/worksheet`, 'worksheets/sheet1.xml']]),
    'xl/worksheets/sheet1.xml': `${XML_DECLARATION}<worksheet xmlns="${main}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${xmlEscape(label)}</t></is></c></row></sheetData></worksheet>`,
  }
}

const MAX_COMMENT = 0xffff
const ZIP_FIRST = new Date(1980, 0, 1, 0, 0, 0)
const ZIP_LAST = new Date(2099, 11, 31, 23, 59, 58)
const EOCD_LENGTH = 22

/** A zip of the parts, `padding` bytes longer than the bare package. */
function officePackage(spec: FileSpec, parts: Record<string, string>, padding: number, made: Made): Buffer {
  // the file's own date, read as local time as zip dates are, so the bytes do not depend on the time zone
  const [year = 2026, month = 1, day = 1, hour = 0, minute = 0, second = 0] = (spec.createdAt ?? '').split(/[- :]/).map(Number)
  // a zip date holds the years 1980-2099 only: a file made outside them is dated at the nearer end
  const mtime = new Date(Math.min(Math.max(new Date(year, month - 1, day, hour, minute, second).getTime(), ZIP_FIRST.getTime()), ZIP_LAST.getTime()))
  const files: Zippable = Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, new TextEncoder().encode(text)]))
  const build = (extra?: number) =>
    Buffer.from(zipSync(extra === undefined ? files : { ...files, 'jobboard-kit/padding.bin': [filler(spec, extra, 'zip'), { level: 0 }] }, { level: 6, mtime }))
  // the bare package and the cost of an empty padding part do not depend on the padding: made once per file
  made.zip ??= build()
  const bare = made.zip
  let zip = bare
  let comment = padding
  if (padding > MAX_COMMENT) {
    made.emptyPart ??= build(0).length - bare.length
    zip = build(padding - made.emptyPart)
    comment = 0
  }
  if (comment === 0) return zip
  // the end-of-central-directory record is last and has no comment yet: give it one (on a copy: the bare package is kept)
  const out = Buffer.concat([zip, filler(spec, comment, 'comment')])
  out.writeUInt16LE(comment, zip.length - EOCD_LENGTH + 20)
  return out
}

// ---- PNG: a small seeded picture; the padding is the text of a tEXt Comment chunk

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c
})

function crc32(bytes: Buffer): number {
  let c = -1
  for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8)
  return (c ^ -1) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(body.length + 8)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), body.length + 4)
  return out
}

const latin1Text = (text: string) => Buffer.from(text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?'), 'latin1')

function png(spec: FileSpec, padding: number): Buffer {
  const width = 64
  const height = 48
  const [r, g, b] = fileBytes(spec.seed, `${spec.key}:colour`, spec.id, 3, '')
  // a gradient written with the Sub filter: each row is its first pixel, then the same step
  const raw = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1)
    raw.set([1, r as number, ((g as number) + y * 3) & 0xff, b as number], row)
    for (let x = 1; x < width; x++) raw[row + 1 + x * 3] = 2
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8 bits, RGB, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('tEXt', Buffer.concat([Buffer.from('Title\0', 'latin1'), latin1Text(spec.label)])),
    chunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), filler(spec, padding, 'png')])),
    chunk('IDAT', Buffer.from(zlibSync(raw, { level: 6 }))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

// ---- JPEG: a 16×16 baseline picture; the label and the padding are COM segments after APP0

/** A 16×16 baseline JPEG (quality 50) made once with jpeg-js; 640 bytes, SOI then a 16-byte JFIF APP0. */
const JPEG_TEMPLATE = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wCEABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2MBERISGBUYLxoaL2NCOEJjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY//AABEIABAAEAMBEQACEQEDEQH/xAGiAAABBQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+gEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoLEQACAQIEBAMEBwUEBAABAncAAQIDEQQFITEGEkFRB2FxEyIygQgUQpGhscEJIzNS8BVictEKFiQ04SXxFxgZGiYnKCkqNTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqCg4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2dri4+Tl5ufo6ery8/T19vf4+fr/2gAMAwEAAhEDEQA/AKccVd7kcdOZZjirJyO+nMljiqHI8enMtRxVk5HfTmf/2Q==',
  'base64',
)
const AFTER_APP0 = 20
const MAX_SEGMENT = 0xffff - 2

const comSegment = (data: Buffer) => {
  const head = Buffer.from([0xff, 0xfe, 0, 0])
  head.writeUInt16BE(data.length + 2, 2)
  return Buffer.concat([head, data])
}

function jpeg(spec: FileSpec, padding: number): Buffer {
  const label = latin1Text(spec.label).subarray(0, MAX_SEGMENT)
  // the label's segment takes what padding it can hold; the rest goes in further segments
  // of 4 to 65,537 bytes each (a segment is its 4-byte head and its data)
  let inLabel = Math.min(padding, MAX_SEGMENT - label.length)
  let rest = padding - inLabel
  if (rest > 0 && rest < 4) {
    inLabel -= 4 - rest
    rest = 4
  }
  const segments = [comSegment(Buffer.concat([label, filler(spec, inLabel, 'jpeg')]))]
  for (let n = 0; rest > 0; n++) {
    let size = Math.min(rest, MAX_SEGMENT + 4)
    if (rest - size > 0 && rest - size < 4) size -= 4
    segments.push(comSegment(filler(spec, size - 4, `jpeg${n}`)))
    rest -= size
  }
  return Buffer.concat([JPEG_TEMPLATE.subarray(0, AFTER_APP0), ...segments, JPEG_TEMPLATE.subarray(AFTER_APP0)])
}

// ---- CSV and TXT: the label, then filler lines

const csvField = (text: string) => `"${text.replace(/"/g, '""')}"`

function csv(spec: FileSpec, padding: number): Buffer {
  const head = `record,file\n${csvField(spec.label)},${csvField(spec.filename)}\n`
  return Buffer.concat([Buffer.from(head, 'utf8'), fillerLines(spec, padding, 'note,')])
}

function txt(spec: FileSpec, padding: number): Buffer {
  return Buffer.concat([Buffer.from(`${spec.label}\n`, 'utf8'), fillerLines(spec, padding, '')])
}

/** What one file's makers share between the bare file and the padded one: the office package's zips. */
interface Made {
  zip?: Buffer
  emptyPart?: number
}

type Maker = (spec: FileSpec, padding: number, made: Made) => Buffer

const MAKERS: Record<string, Maker> = {
  pdf,
  docx: (spec, padding, made) => officePackage(spec, docxParts(spec.label), padding, made),
  xlsx: (spec, padding, made) => officePackage(spec, xlsxParts(spec.label), padding, made),
  png,
  jpg: jpeg,
  jpeg,
  csv,
  txt,
}

/** The extensions whose downloads are real files of their type. */
export const FILE_TYPES = Object.keys(MAKERS)

export const extensionOf = (filename: string) => /\.([^./\\]+)$/.exec(filename)?.[1]?.toLowerCase() ?? ''

/**
 * The download's bytes, exactly `spec.size` of them. A size below the smallest valid
 * file of the type gives the start of that file: as a real upload cut short would.
 */
export function fileContent(spec: FileSpec): Buffer {
  const extension = extensionOf(spec.filename)
  const make = MAKERS[extension]
  if (!make) return fileBytes(spec.seed, spec.key, spec.id, spec.size, extension)
  const made: Made = {}
  const bare = make(spec, 0, made)
  if (bare.length >= spec.size) return bare.subarray(0, spec.size)
  const bytes = make(spec, spec.size - bare.length, made)
  if (bytes.length !== spec.size) throw new Error(`${extension} file of ${bytes.length} bytes instead of ${spec.size}`)
  return bytes
}

/** The smallest valid file of the type for this record, in bytes (0 for other types). */
export const minimalSize = (spec: Omit<FileSpec, 'size'>) => {
  const make = MAKERS[extensionOf(spec.filename)]
  return make ? make({ ...spec, size: 0 }, 0, {}).length : 0
}

/**
 * The file in 64 KiB pieces, as a download sends it. A real file of its type is built
 * whole first (its padding sits inside the format), so a download holds at most the
 * file-size bound in memory while it is sent; other files are made piece by piece.
 */
export function* filePieces(spec: FileSpec): Generator<Buffer> {
  const extension = extensionOf(spec.filename)
  if (!MAKERS[extension]) {
    yield* fileChunks(spec.seed, spec.key, spec.id, spec.size, extension)
    return
  }
  const whole = fileContent(spec)
  for (let from = 0; from < whole.length; from += FILE_CHUNK) yield whole.subarray(from, from + FILE_CHUNK)
}
