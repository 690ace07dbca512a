// The replacements `record` writes instead of a deployment's personal values: names,
// e-mails, telephones, addresses, coordinates, IPs, free text, file names and opaque
// identifiers. Each replacement is a pure function of a secret key and the original
// value, so the same person gets the same replacement everywhere (an applicant's e-mail
// still finds its candidate) and a resumed recording agrees with its first run; without
// the key (derived from the credentials, never written) nobody can check a guessed name
// against the output. Free text keeps its length and form: each word becomes a word of
// about its length and case, each digit a digit, punctuation and spacing stay.
import { createHash } from 'node:crypto'
import { reseedableFaker, type ReseedableFaker } from '../core/random.js'
import { drawFrom, sameShape } from '../core/shape.js'

export type ValueKind = 'name' | 'email' | 'telephone' | 'address' | 'city' | 'county' | 'postcode' | 'latitude' | 'longitude' | 'ip' | 'text' | 'filename' | 'identifier'

/** The key of a deployment's replacements: the credentials and origin hashed, so only who holds the password can repeat them. */
export function replacementKey(origin: string, username = '', password = ''): string {
  return createHash('sha256').update(`jobboard-kit record\u0000${origin}\u0000${username}\u0000${password}`).digest('hex').slice(0, 32)
}

function caseLike(word: string, model: string): string {
  if (model.length > 1 && model === model.toUpperCase()) return word.toUpperCase()
  const first = model[0] ?? ''
  if (first === first.toUpperCase() && first !== first.toLowerCase()) return `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`
  return word
}

/** Decimal places of a number written as text. */
const places = (text: string) => text.split('.')[1]?.length ?? 0

export class Anonymiser {
  readonly #key: string
  readonly #faker: ReseedableFaker = reseedableFaker()
  readonly #done = new Map<string, string>()

  constructor(key: string) {
    this.#key = key
  }

  /** The replacement of a value of a kind; empty stays empty. */
  replace(kind: ValueKind, value: string): string {
    if (value === '') return value
    const id = `${kind}\u0000${value}`
    let out = this.#done.get(id)
    if (out === undefined) {
      out = this.#make(kind, value)
      this.#done.set(id, out)
    }
    return out
  }

  #seeded(kind: string, value: string) {
    return this.#faker.seed(this.#key, kind, value)
  }

  #make(kind: ValueKind, value: string): string {
    const f = this.#seeded(kind, value)
    switch (kind) {
      case 'name': {
        const words = value.trim().split(/\s+/)
        return words.map((_, i) => (i === words.length - 1 && i > 0 ? f.person.lastName() : f.person.firstName())).join(' ')
      }
      case 'email': {
        const at = value.lastIndexOf('@')
        const local = at < 0 ? value : value.slice(0, at)
        const domain = at < 0 ? '' : value.slice(at + 1)
        const newLocal = this.#text(local, 'email-local').toLowerCase().replace(/[^a-z0-9._+-]/g, 'x') || 'someone'
        const newDomain = domain === '' ? 'example.com' : (['example.com', 'example.org', 'example.net'][this.#seeded('domain', domain).number.int({ min: 0, max: 2 })] as string)
        return `${newLocal}@${newDomain}`
      }
      case 'address':
        return f.location.streetAddress()
      case 'city':
        return f.location.city()
      case 'county':
        return f.location.county()
      case 'postcode':
        return f.location.zipCode()
      case 'latitude':
        return Number.isNaN(Number(value)) ? String(sameShape(value, drawFrom(f))) : f.location.latitude({ min: 50, max: 58.5, precision: Math.max(1, places(value)) }).toFixed(Math.max(1, places(value)))
      case 'longitude':
        return Number.isNaN(Number(value)) ? String(sameShape(value, drawFrom(f))) : f.location.longitude({ min: -5.5, max: 1.7, precision: Math.max(1, places(value)) }).toFixed(Math.max(1, places(value)))
      case 'ip': {
        const octet = () => f.number.int({ min: 1, max: 254 })
        if (/^[0-9]{1,3}(\.[0-9]{1,3}){3}$/.test(value)) return `10.${octet()}.${octet()}.${octet()}`
        const hex = () => f.number.int({ min: 1, max: 0xffff }).toString(16)
        if (value.includes(':')) return `fd00:${hex()}:${hex()}:${hex()}::${hex()}`
        return String(sameShape(value, drawFrom(f)))
      }
      case 'filename': {
        const dot = value.lastIndexOf('.')
        const extension = dot > 0 && value.length - dot <= 6 ? value.slice(dot) : ''
        const stem = extension === '' ? value : value.slice(0, dot)
        return `${this.#text(stem, 'filename')}${extension}`
      }
      case 'telephone':
      case 'identifier':
        return String(sameShape(value, drawFrom(f)))
      case 'text':
        return this.#text(value, 'text')
    }
  }

  /** Text of the same form: words replaced by words of about their length and case, digits by digits, the rest kept. */
  #text(value: string, kind: string): string {
    const f = this.#seeded(kind, value)
    const draw = drawFrom(f)
    return value
      .split(/(\p{L}+)/u)
      .map((part, i) => {
        if (i % 2 === 1) return caseLike(f.lorem.word({ length: part.length, strategy: 'closest' }), part)
        return part.replace(/[0-9]/g, () => String(draw.int(0, 9)))
      })
      .join('')
  }
}
