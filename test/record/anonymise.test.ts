// The replacements record writes: each keeps its value's form, the same value gets the
// same replacement, and another key (another deployment's credentials) gives others.
import t from 'tap'
import { Anonymiser, replacementKey } from '../../src/record/anonymise.js'

const key = replacementKey('https://staging.example.com', 'user', 'secret')
const a = new Anonymiser(key)

t.test('each kind of value keeps its form', async (t) => {
  t.match(a.replace('name', 'Ada Byron Lovelace'), /^\S+ \S+ \S+$/, 'a name keeps its number of words')
  t.match(a.replace('email', 'ada.lovelace@analytical.example'), /^[a-z0-9._+-]+@example\.(com|org|net)$/, 'an e-mail is an e-mail at example.com, .org or .net')
  t.match(a.replace('telephone', '+44 (0)20 7946 0958'), /^\+[0-9]{2} \([0-9]\)[0-9]{2} [0-9]{4} [0-9]{4}$/, 'a telephone keeps its pattern of digits')
  t.match(a.replace('ip', '81.2.69.160'), /^10\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/, 'an IPv4 address goes into 10.0.0.0/8')
  t.match(a.replace('ip', '2001:db8:85a3::8a2e:370:7334'), /^fd00:/, 'an IPv6 address into fd00::/8')
  t.match(a.replace('latitude', '51.5072'), /^5[0-8]\.[0-9]{4}$/, 'a latitude keeps its precision, in Great Britain')
  t.match(a.replace('filename', 'Ada_Lovelace_CV.docx'), /^[A-Z][a-z]+_[A-Z][a-z]+_[A-Z]{2}\.docx$/, 'a file name keeps its extension and the form of its stem')
  t.match(a.replace('text', 'I have 12 years in practice.'), /^[A-Z] [a-z]+ [0-9]{2} [a-z]+ [a-z]+ [a-z]+\.$/, 'free text keeps its words, digits and punctuation')
  t.equal(a.replace('address', ''), '', 'an empty value stays empty')
})

t.test('the same value gets the same replacement, another key another one', async (t) => {
  const again = new Anonymiser(key)
  const other = new Anonymiser(replacementKey('https://staging.example.com', 'user', 'another'))
  for (const [kind, value] of [['name', 'Ada Lovelace'], ['email', 'ada@example.org'], ['text', 'A cover letter, of sorts.']] as const) {
    t.equal(again.replace(kind, value), a.replace(kind, value), `${kind}: the same on every run with the same credentials`)
    t.not(other.replace(kind, value), a.replace(kind, value), `${kind}: another with other credentials`)
    t.not(a.replace(kind, value), value, `${kind}: never the value itself`)
  }
})
