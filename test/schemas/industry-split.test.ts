// job_industry values split into sector and sub-sector, and the sector_disciplines
// spelling derived from them, over every listed value.
import t from 'tap'
import { JOB_INDUSTRIES, sectorDisciplinesOf, sectorsOf, splitIndustry } from '../../schemas/values.js'

t.test('splits every listed job_industry value', async (t) => {
  for (const value of JOB_INDUSTRIES) {
    const { sector, subSector } = splitIndustry(value)
    t.ok(JOB_INDUSTRIES.includes(sector as (typeof JOB_INDUSTRIES)[number]), `${value}: the sector "${sector}" is itself a listed value`)
    t.equal(subSector === null ? sector : `${sector}/${subSector}`, value, `${value}: sector and sub-sector join back to the value`)
    if (subSector !== null) t.notMatch(subSector, /^\s|\s$/, `${value}: the sub-sector has no stray spaces`)
  }
})

t.test('keeps " / " inside the sector', async (t) => {
  t.same(splitIndustry('Veterinary Admin / Other/Veterinary Receptionist'), {
    sector: 'Veterinary Admin / Other',
    subSector: 'Veterinary Receptionist',
  })
  t.same(splitIndustry('Veterinary Admin / Other'), { sector: 'Veterinary Admin / Other', subSector: null })
})

t.test('splits a value it does not know at the first slash not between spaces', async (t) => {
  t.same(splitIndustry('Farm Animal / Livestock/Dairy Vet', []), { sector: 'Farm Animal / Livestock', subSector: 'Dairy Vet' })
  t.same(splitIndustry('Locum', []), { sector: 'Locum', subSector: null })
})

t.test('lists the three sectors of the spec', async (t) => {
  t.same(sectorsOf(JOB_INDUSTRIES), ['Veterinary Surgeon', 'Registered Veterinary Nurse', 'Veterinary Admin / Other'])
})

t.test('writes a discipline as <Sector>::<Discipline> and a sector alone', async (t) => {
  const spelled = sectorDisciplinesOf(JOB_INDUSTRIES)
  t.equal(spelled.length, JOB_INDUSTRIES.length)
  t.ok(spelled.includes('Veterinary Admin / Other::Vet Care Assistant'))
  t.ok(spelled.includes('Registered Veterinary Nurse'))
  for (const item of spelled) t.notMatch(item, /(^|[^:]):([^:]|$)/, `${item} has no single colon`)
})
