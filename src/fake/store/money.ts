// Amounts of money as the board writes them for people ("£45,000", "£23.50"): what
// toLocaleString('en-GB') gives, without Intl. Intl's first use in a process loads ICU's
// locale data, some 16 ms of a fake's first answer; these give the same text
// (test/fake/store/money.property.test.ts compares them over many numbers).

const OPTIONS = { minimumFractionDigits: 2, maximumFractionDigits: 2 } as const

/** Digits with a comma between each group of three, from the right. */
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ',')

/** A whole number as `n.toLocaleString('en-GB')` writes it. */
export function wholeAmount(n: number): string {
  return Number.isSafeInteger(n) && n >= 0 ? grouped(String(n)) : n.toLocaleString('en-GB')
}

/**
 * An amount as `n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })`
 * writes it: like Intl, from the shortest decimal that is the number, rounded to two places
 * half away from zero. Negative numbers and those JavaScript writes with an exponent are left to Intl.
 */
export function penceAmount(n: number): string {
  const match = n >= 0 && !Object.is(n, -0) ? /^(\d+)(?:\.(\d+))?$/.exec(String(n)) : null
  if (match === null) return n.toLocaleString('en-GB', OPTIONS)
  const [, whole = '', fraction = ''] = match
  let pence = BigInt(`${whole}${fraction.slice(0, 2).padEnd(2, '0')}`)
  if ((fraction[2] ?? '0') >= '5') pence += 1n
  const digits = String(pence).padStart(3, '0')
  return `${grouped(digits.slice(0, -2))}.${digits.slice(-2)}`
}
