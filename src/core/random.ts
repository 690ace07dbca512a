// The only sources of randomness: a seeded faker per store (or per record), a small
// seeded generator for drawing a board's relations in bulk, and a seeded byte stream per
// file. All are pure functions of their seeds, so the same scenario and seed give
// byte-identical answers.
// The en_GB entry, not the root one: the root loads every locale (about 150 ms at
// start-up); en_GB's instance already holds en_GB over en over base, merged.
import type { Faker } from '@faker-js/faker'
import { faker as britishFaker } from '@faker-js/faker/locale/en_GB'

const FakerClass = britishFaker.constructor as typeof Faker

export function createFaker(seed: number): Faker {
  // a faker of its own per caller: the shared instance's seed must not be touched
  const faker = new FakerClass({ locale: britishFaker.rawDefinitions })
  faker.seed(seed)
  return faker
}

/**
 * A small, fast seeded generator (mulberry32): a board's relations are drawn from it a
 * few million numbers at a time, and a record's faker is re-seeded with it in O(1)
 * (faker's own Mersenne Twister takes tens of microseconds to seed).
 */
export class Prng {
  // a plain field, not #state: private fields cost twice as much in the hot loops
  private state = 0

  constructor(seed = 0) {
    this.seed(seed)
  }

  seed(seed: number | number[]): void {
    this.state = (Array.isArray(seed) ? hash32(...seed) : seed) | 0
  }

  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0
    const a = this.state
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return (t ^ (t >>> 14)) >>> 0
  }

  /** A float in [0, 1) with 53 random bits. */
  next(): number {
    return ((this.uint32() >>> 5) * 67108864 + (this.uint32() >>> 6)) / 9007199254740992
  }

  /** A float in [0, 1) with 32 random bits: enough for a choice or a spacing, at half the cost. */
  float32(): number {
    return this.uint32() / 4294967296
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    if (max <= min) return min
    const span = max - min + 1
    return min + Math.floor((span <= 4294967296 ? this.float32() : this.next()) * span)
  }

  chance(p: number): boolean {
    return this.float32() < p
  }
}

/** A faker whose seed is cheap to set: one per board, re-seeded for every record it makes. */
export interface ReseedableFaker {
  readonly faker: Faker
  seed(...parts: Array<string | number>): Faker
}

export function reseedableFaker(): ReseedableFaker {
  const randomizer = new Prng()
  const faker = new FakerClass({ locale: britishFaker.rawDefinitions, randomizer })
  return {
    faker,
    seed: (...parts) => {
      randomizer.seed(hash32(...parts))
      return faker
    },
  }
}

/** A 32-bit FNV-1a hash of the given parts, to derive independent seeds. */
export function hash32(...parts: Array<string | number>): number {
  let h = 0x811c9dc5
  for (const part of parts) {
    const text = `${String(part)}\u0000`
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i)
      h = Math.imul(h, 0x01000193) >>> 0
    }
  }
  return h >>> 0
}

/** A 32-bit integer hash (murmur3's finalizer): the mixing step of the draws addressed by index below. */
export function mix32(x: number): number {
  let h = x | 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/**
 * Item `index` of a list's draw keyed `key` (a hash32 of the seed and the list): a pure
 * function of the two, so an item is drawn alone, in any order, on demand, and is the same
 * wherever it is drawn (no generator state walked through the items before it).
 */
export function hashAt(key: number, index: number): number {
  return mix32(key ^ mix32(index + 0x9e3779b9))
}

/** A hash as a float in [0, 1), 24 bits: exact in a double, so sums and products of it stay ordered. */
export const unitOf = (hash: number): number => (hash >>> 8) / 16777216

/**
 * A keyed shuffle of 0..size-1 that answers both ways without holding it: a four-round
 * Feistel network over the smallest even number of bits that holds `size`, walked again
 * while it lands past the end (cycle walking, at most four steps on average). What a
 * board draws by index and must also answer backwards (which items fell to one owner)
 * is drawn through one of these.
 */
export class Shuffle {
  // plain fields, not #private ones: these are read in scans of millions
  private readonly mask: number
  private readonly k0: number
  private readonly k1: number
  private readonly k2: number
  private readonly k3: number

  constructor(
    readonly size: number,
    key: number,
  ) {
    let bits = 2
    while (2 ** bits < size) bits += 2
    this.mask = 2 ** (bits / 2) - 1
    this.k0 = mix32(key + 1)
    this.k1 = mix32(key + 2)
    this.k2 = mix32(key + 3)
    this.k3 = mix32(key + 4)
  }

  private round(x: number, key: number): number {
    return mix32(x ^ key) & this.mask
  }

  // the four rounds written out: a loop over the keys costs a third more in a scan of millions
  #forward(x: number): number {
    const scale = this.mask + 1
    const l = Math.floor(x / scale)
    const r = x & this.mask
    const a = l ^ this.round(r, this.k0)
    const b = r ^ this.round(a, this.k1)
    const c = a ^ this.round(b, this.k2)
    const d = b ^ this.round(c, this.k3)
    return c * scale + d
  }

  #backward(y: number): number {
    const scale = this.mask + 1
    const c = Math.floor(y / scale)
    const d = y & this.mask
    const b = d ^ this.round(c, this.k3)
    const a = c ^ this.round(b, this.k2)
    const r = b ^ this.round(a, this.k1)
    const l = a ^ this.round(r, this.k0)
    return l * scale + r
  }

  /** Where `x` (in 0..size-1) goes. */
  at(x: number): number {
    if (this.size <= 1) return x
    let y = this.#forward(x)
    while (y >= this.size) y = this.#forward(y)
    return y
  }

  /** What goes to `y` (in 0..size-1): at(from(y)) === y. */
  from(y: number): number {
    if (this.size <= 1) return y
    let x = this.#backward(y)
    while (x >= this.size) x = this.#backward(x)
    return x
  }
}

/** Signatures that make a generated file look like its extension to a sniffing client. */
const MAGIC: Record<string, Uint8Array> = {
  pdf: new TextEncoder().encode('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n'),
  docx: Uint8Array.of(0x50, 0x4b, 0x03, 0x04),
  xlsx: Uint8Array.of(0x50, 0x4b, 0x03, 0x04),
}

/** Bytes generated at a time: a download is streamed in pieces of this size, never built whole. */
export const FILE_CHUNK = 65_536

/**
 * Writes the noise of one piece, `length` bytes at `at` of `out` less the first `skip`
 * (the signature), from the generator state `x`, and answers the state after. Bytes come
 * four at a time counted from the piece's start, so a piece is the same whether it is
 * made alone or as part of the whole file.
 */
function noise(out: Uint8Array, at: number, length: number, skip: number, x: number): number {
  let i = at + skip
  const end = at + length
  for (; i + 4 <= end; i += 4) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    // little-endian, as writeUInt32LE wrote it
    out[i] = x
    out[i + 1] = x >>> 8
    out[i + 2] = x >>> 16
    out[i + 3] = x >>> 24
  }
  for (; i < end; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return x
}

/** Writes a file's bytes [from, from + out.length) into `out`, piece by piece: its signature, then noise; answers the state after. */
function fill(out: Uint8Array, from: number, magic: Uint8Array, x: number): number {
  for (let at = 0; at < out.length; at += FILE_CHUNK) {
    const length = Math.min(FILE_CHUNK, out.length - at)
    let skip = 0
    for (; from + at + skip < magic.length && skip < length; skip++) out[at + skip] = magic[from + at + skip] as number
    x = noise(out, at, length, skip, x)
  }
  return x
}

const signature = (extension: string) => MAGIC[extension.toLowerCase()] ?? new Uint8Array(0)
const startState = (seed: number, kind: string, id: number) => hash32(seed, kind, id) || 0x9e3779b9

/**
 * The content of a generated file, piece by piece: a pure function of (seed, kind, id)
 * and its size, a signature for its extension, then xorshift32 noise. The one place
 * file content is made; downloads stream it, so a 50 MiB file costs 64 KiB of memory.
 */
export function* fileChunks(seed: number, kind: string, id: number, size: number, extension: string): Generator<Buffer> {
  const magic = signature(extension)
  let x = startState(seed, kind, id)
  for (let from = 0; from < size; from += FILE_CHUNK) {
    const out = Buffer.allocUnsafe(Math.min(FILE_CHUNK, size - from))
    x = fill(out, from, magic, x)
    yield out
  }
}

/** A whole generated file in memory, the same bytes as its pieces: for small files and the filler inside typed files. */
export function fileBytes(seed: number, kind: string, id: number, size: number, extension: string): Buffer {
  const out = Buffer.allocUnsafe(size)
  fill(out, 0, signature(extension), startState(seed, kind, id))
  return out
}
