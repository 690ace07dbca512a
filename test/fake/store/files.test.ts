// Downloads are files that open: a PDF a PDF parser reads, DOCX and XLSX packages that
// are valid Office Open XML zips, images that decode, CSV and TXT text; each names its
// record in a line of text, is exactly the listed size and the same for the same seed.
import { unzipSync } from 'fflate'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import jpeg from 'jpeg-js'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { PNG } from 'pngjs'
import t, { type Test } from 'tap'
import { allPages, board, call } from '../../helpers/board.js'
import type { FastifyInstance } from 'fastify'

const path = (href: string) => new URL(href).pathname

async function pdfText(bytes: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise
  const page = await document.getPage(1)
  const content = await page.getTextContent()
  await document.destroy()
  return content.items.map((item) => ('str' in item ? item.str : '')).join('')
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' })

/** Opens an OOXML package the way an Office reader would, and answers the text of its main part. */
function officeText(t: Test, bytes: Buffer, mainType: RegExp): string {
  const parts = unzipSync(new Uint8Array(bytes))
  const text = (name: string) => new TextDecoder().decode(parts[name])
  for (const name of Object.keys(parts).filter((n) => /\.(xml|rels)$/.test(n))) t.equal(XMLValidator.validate(text(name)), true, `${name} is well-formed XML`)
  const types = xml.parse(text('[Content_Types].xml')).Types
  const defaults = new Map([types.Default].flat().map((d: { Extension: string; ContentType: string }) => [d.Extension, d.ContentType]))
  const overrides = new Map([types.Override].flat().map((o: { PartName: string; ContentType: string }) => [o.PartName, o.ContentType]))
  for (const name of Object.keys(parts)) {
    t.ok(overrides.has(`/${name}`) || defaults.has(name.split('.').pop() as string) || name === '[Content_Types].xml', `${name} has a content type`)
  }
  const relationship = [xml.parse(text('_rels/.rels')).Relationships.Relationship].flat()[0] as { Type: string; Target: string }
  t.match(relationship.Type, /\/officeDocument$/, 'the package relationship points at the main document')
  t.match(overrides.get(`/${relationship.Target}`), mainType, 'of the right type')
  return text(relationship.Target) + Object.keys(parts).filter((n) => /worksheets\/.*\.xml$/.test(n)).map(text).join('')
}

/** Checks that the bytes are a file of the type the name says, naming `label`. */
async function opens(t: Test, filename: string, bytes: Buffer, label: RegExp): Promise<void> {
  const extension = filename.split('.').pop()?.toLowerCase()
  if (extension === 'pdf') {
    t.match(await pdfText(bytes), label, `${filename}: the PDF opens and its page names the record`)
  } else if (extension === 'docx') {
    t.match(officeText(t, bytes, /wordprocessingml\.document\.main\+xml$/), label, `${filename}: word/document.xml names the record`)
  } else if (extension === 'xlsx') {
    t.match(officeText(t, bytes, /spreadsheetml\.sheet\.main\+xml$/), label, `${filename}: the sheet names the record`)
  } else if (extension === 'png') {
    const image = PNG.sync.read(bytes)
    t.ok(image.width > 0 && image.height > 0 && image.data.length === image.width * image.height * 4, `${filename}: the PNG decodes (${image.width}×${image.height})`)
    t.match(bytes.toString('latin1'), label, `${filename}: its tEXt chunk names the record`)
  } else if (extension === 'jpg' || extension === 'jpeg') {
    const image = jpeg.decode(bytes, { useTArray: true })
    t.ok(image.width > 0 && image.height > 0, `${filename}: the JPEG decodes (${image.width}×${image.height})`)
    t.match(bytes.toString('latin1'), label, `${filename}: its comment names the record`)
  } else if (extension === 'csv') {
    const [header, row] = bytes.toString('utf8').split('\n')
    t.equal(header, 'record,file', `${filename}: a CSV with a header row`)
    t.match(row, label, `${filename}: whose first row names the record`)
  } else {
    t.match(bytes.toString('utf8').split('\n')[0], label, `${filename}: the first line names the record`)
  }
}

async function download(app: FastifyInstance, href: string): Promise<Buffer> {
  const answer = await call(app, path(href))
  if (answer.status !== 200) throw new Error(`${href} answered ${answer.status}`)
  return answer.raw.rawPayload
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

t.test('every kind of download the generator makes opens, naming its record', async (t) => {
  const app = await board(t)
  const candidates = (await allPages(app, '/api/v1/candidates/list')).flatMap((p) => p.body.data) as Array<{ name: string } & Record<'resumes' | 'documents' | 'timesheets', Array<{ href: string; filename: string; filesize: string }>>>
  const seen = new Map<string, number>()
  for (const candidate of candidates) {
    for (const kind of ['resumes', 'documents', 'timesheets'] as const) {
      for (const file of candidate[kind]) {
        const key = `${kind} ${file.filename.split('.').pop()}`
        if ((seen.get(key) ?? 0) >= 2) continue
        seen.set(key, (seen.get(key) ?? 0) + 1)
        const bytes = await download(app, file.href)
        t.equal(bytes.length, Number(file.filesize), `${file.filename}: the listed filesize`)
        const id = path(file.href).split('/').pop()
        await opens(t, file.filename, bytes, new RegExp(`${kind === 'resumes' ? 'Resume' : kind === 'documents' ? 'Document' : 'Timesheet'} ${id} of ${escapeRegExp(candidate.name)}: ${escapeRegExp(file.filename)}`))
      }
    }
  }
  const applications = (await call(app, '/api/v1/applications/list')).body.data as Array<{ id: number; applicant: { name: string; attachment: { href: string; filename: string } } }>
  for (const { id, applicant } of applications.slice(0, 6)) {
    const bytes = await download(app, applicant.attachment.href)
    await opens(t, applicant.attachment.filename, bytes, new RegExp(`Attachment of application ${id} by ${escapeRegExp(applicant.name)}: ${escapeRegExp(applicant.attachment.filename)}`))
  }
  t.same([...seen.keys()].sort(), ['documents docx', 'documents pdf', 'resumes docx', 'resumes pdf', 'timesheets pdf', 'timesheets xlsx'], 'every extension of every kind was opened')
})

const KINDS = ['pdf', 'docx', 'xlsx', 'png', 'jpg', 'jpeg', 'csv', 'txt']

t.test('files named by the control API open as their extension says, at any size from small to 10 MiB', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const sizes = [3_000, 65_536 + 2_000, 70_001, 1_048_579]
  const files = KINDS.flatMap((extension) => sizes.map((filesize, i) => ({ filename: `Grace_Hopper_${i}.${extension.toUpperCase()}`, filesize })))
  // a candidate holds up to 20 resumes and 20 documents
  const payload = { name: 'Grace Hopper', resumes: files.slice(0, 16), documents: files.slice(16) }
  const added = await call(app, { method: 'POST', url: '/__mock/candidates', payload })
  t.equal(added.status, 201)
  for (const kind of ['resumes', 'documents'] as const) {
    const listed = added.body.data[kind] as Array<{ href: string; filename: string; filesize: string }>
    t.equal(listed.length, payload[kind].length)
    for (const file of listed) {
      const bytes = await download(app, file.href)
      t.equal(bytes.length, Number(file.filesize), `${file.filename}: exactly ${file.filesize} bytes`)
      await opens(t, file.filename.toLowerCase(), bytes, new RegExp(`(Resume|Document) \\d+ of Grace Hopper: ${escapeRegExp(file.filename)}`))
    }
  }
  const huge = await call(app, { method: 'POST', url: '/__mock/timesheets', payload: { candidate_id: added.body.id, filename: 'big.docx', filesize: 10_485_760 } })
  const bytes = await download(app, huge.body.data.attachment.href)
  t.equal(bytes.length, 10_485_760, 'the largest size a seed may give')
  await opens(t, 'big.docx', bytes, /Timesheet \d+ of Grace Hopper: big\.docx/)
})

t.test('a size below the smallest valid file gives the start of that file, still of the listed size', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const resumes = [{ filename: 'tiny.pdf', filesize: 100 }, { filename: 'tiny.png', filesize: 8 }, { filename: 'empty.docx', filesize: 0 }, { filename: 'tiny.txt', filesize: 5 }]
  const added = await call(app, { method: 'POST', url: '/__mock/candidates', payload: { name: 'Ada Lovelace', resumes } })
  const listed = added.body.data.resumes as Array<{ href: string; filename: string; filesize: string }>
  const byName = new Map(await Promise.all(listed.map(async (file) => [file.filename, await download(app, file.href)] as const)))
  t.equal(byName.get('tiny.pdf')?.length, 100)
  t.equal(byName.get('tiny.pdf')?.subarray(0, 8).toString(), '%PDF-1.4', 'a PDF cut short still starts as one')
  t.same([...(byName.get('tiny.png') ?? [])], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature')
  t.equal(byName.get('empty.docx')?.length, 0)
  t.equal(byName.get('tiny.txt')?.toString(), 'Resum')
})

t.test('the same seed gives the same bytes; another seed, other bytes', async (t) => {
  const bytesOf = async (seed: number) => {
    const app = await board(t, { seed })
    const { attachment } = (await call(app, '/api/v1/timesheets/list')).body.data[0] as { attachment: { href: string } }
    return { href: path(attachment.href), bytes: await download(app, attachment.href) }
  }
  const first = await bytesOf(11)
  const again = await bytesOf(11)
  t.equal(again.href, first.href)
  t.ok(again.bytes.equals(first.bytes), 'byte for byte')
  const other = await bytesOf(12)
  t.notOk(other.href === first.href && other.bytes.equals(first.bytes), 'a different seed, different bytes')
})

t.test('other extensions keep seeded bytes of the listed size', async (t) => {
  const app = await board(t, { scenario: 'empty' })
  const added = await call(app, { method: 'POST', url: '/__mock/candidates', payload: { name: 'Ada Lovelace', resumes: [{ filename: 'cv.odt', filesize: 4_321 }, { filename: 'README', filesize: 77 }] } })
  for (const file of added.body.data.resumes as Array<{ href: string; filesize: string }>) {
    t.equal((await download(app, file.href)).length, Number(file.filesize))
  }
})
