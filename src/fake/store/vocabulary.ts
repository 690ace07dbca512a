// Words of a UK veterinary recruitment board that the generator draws from. These are
// content, not rules: the API constrains none of them (see schemas/values.ts for what
// it does constrain).

export const EXPERTISE = [
  'Anaesthesia',
  'Dentistry',
  'Orthopaedics',
  'Soft tissue surgery',
  'Ultrasound',
  'Radiography',
  'Exotics',
  'Equine lameness',
  'Farm animal medicine',
  'Dermatology',
  'Ophthalmology',
  'Emergency and critical care',
  'Feline medicine',
  'Behaviour',
  'Nutrition',
  'Client communication',
  'Practice management',
] as const

export const QUALIFICATIONS = {
  'Veterinary Surgeon': ['BVSc MRCVS', 'BVetMed MRCVS', 'BVM&S MRCVS', 'MA VetMB MRCVS', 'BVMS MRCVS', 'CertAVP'],
  'Registered Veterinary Nurse': ['Diploma in Veterinary Nursing', 'FdSc Veterinary Nursing', 'BSc (Hons) Veterinary Nursing', 'Certificate in Veterinary Nursing'],
  other: ['Level 3 Diploma in Veterinary Care Assistance', 'NVQ Level 3 Animal Care', 'ILM Level 5 Leadership', 'Certificate in Veterinary Practice Management'],
} as const

/** Roles for a sector chosen without a sub-sector. */
export const SECTOR_ROLE: Record<string, string> = {
  'Veterinary Surgeon': 'Veterinary Surgeon',
  'Registered Veterinary Nurse': 'Registered Veterinary Nurse',
  'Veterinary Admin / Other': 'Practice Administrator',
}

/** Yearly salary bands in pounds by sector; other units are derived from them. */
export const SALARY_BANDS: Record<string, readonly [number, number]> = {
  'Veterinary Surgeon': [38000, 90000],
  'Registered Veterinary Nurse': [24000, 38000],
  'Veterinary Admin / Other': [20000, 36000],
}
export const DEFAULT_SALARY_BAND: readonly [number, number] = [22000, 60000]

/** Divisors from a yearly salary to each salary_unit. */
export const UNIT_DIVISOR: Record<string, number> = {
  'Per year': 1,
  'Per month': 12,
  'Per week': 52,
  'Per hour': 1950,
}

export const CURRENCY_SYMBOL: Record<string, string> = { GBP: '£', EUR: '€', USD: '$' }

export const PRACTICE_SUFFIXES = [
  'Veterinary Surgery',
  'Vets',
  'Veterinary Hospital',
  'Animal Hospital',
  'Veterinary Group',
  'Equine Clinic',
  'Veterinary Centre',
  'Referrals',
] as const

export const SEEKING = ['Permanent', 'Locum', 'Permanent or locum', 'Part time', 'Temporary cover'] as const
export const NOTICE_PERIODS = ['Immediate', '1 week', '2 weeks', '1 month', '2 months', '3 months'] as const
export const EMAIL_DOMAINS = ['gmail.com', 'hotmail.co.uk', 'outlook.com', 'yahoo.co.uk', 'btinternet.com', 'icloud.com'] as const
export const DOCUMENT_NAMES = [
  'RCVS_Registration',
  'DBS_Certificate',
  'Passport',
  'Reference_Letter',
  'Vaccination_Record',
  'Driving_Licence',
  'CPD_Record',
] as const
export const JOB_HOURS = ['40 hours per week', '4 days per week', '1 in 6 weekends', 'No out of hours', 'Shared on-call rota', 'Nights: 4 on, 4 off'] as const
export const JOB_BENEFITS = ['RCVS fees paid', 'CPD allowance', 'Pension', 'Private healthcare', 'Pet healthcare', 'Relocation package', 'Accommodation available', '25 days holiday'] as const
export const JOB_REQUIREMENTS = ['MRCVS', 'RVN registration', 'Full UK driving licence', 'Right to work in the UK', 'Two years in practice'] as const
export const JOB_RESPONSIBILITIES = ['Consulting', 'Routine surgery', 'Out of hours cover', 'Mentoring new graduates', 'Nurse clinics', 'Reception and client care', 'Stock control'] as const

/** Real UK towns with their county and postcode area, for candidate addresses and practices. */
export const UK_TOWNS: ReadonlyArray<readonly [town: string, county: string, postcodeArea: string]> = [
  ['Harrogate', 'North Yorkshire', 'HG'],
  ['York', 'North Yorkshire', 'YO'],
  ['Skipton', 'North Yorkshire', 'BD'],
  ['Leeds', 'West Yorkshire', 'LS'],
  ['Huddersfield', 'West Yorkshire', 'HD'],
  ['Sheffield', 'South Yorkshire', 'S'],
  ['Lincoln', 'Lincolnshire', 'LN'],
  ['Louth', 'Lincolnshire', 'LN'],
  ['Kendal', 'Cumbria', 'LA'],
  ['Carlisle', 'Cumbria', 'CA'],
  ['Penrith', 'Cumbria', 'CA'],
  ['Lancaster', 'Lancashire', 'LA'],
  ['Preston', 'Lancashire', 'PR'],
  ['Chester', 'Cheshire', 'CH'],
  ['Nantwich', 'Cheshire', 'CW'],
  ['Shrewsbury', 'Shropshire', 'SY'],
  ['Ludlow', 'Shropshire', 'SY'],
  ['Hereford', 'Herefordshire', 'HR'],
  ['Worcester', 'Worcestershire', 'WR'],
  ['Stratford-upon-Avon', 'Warwickshire', 'CV'],
  ['Leamington Spa', 'Warwickshire', 'CV'],
  ['Derby', 'Derbyshire', 'DE'],
  ['Matlock', 'Derbyshire', 'DE'],
  ['Newark', 'Nottinghamshire', 'NG'],
  ['Melton Mowbray', 'Leicestershire', 'LE'],
  ['Oakham', 'Rutland', 'LE'],
  ['Northampton', 'Northamptonshire', 'NN'],
  ['Bedford', 'Bedfordshire', 'MK'],
  ['St Albans', 'Hertfordshire', 'AL'],
  ['Cambridge', 'Cambridgeshire', 'CB'],
  ['Ely', 'Cambridgeshire', 'CB'],
  ['Newmarket', 'Suffolk', 'CB'],
  ['Bury St Edmunds', 'Suffolk', 'IP'],
  ['Ipswich', 'Suffolk', 'IP'],
  ['Norwich', 'Norfolk', 'NR'],
  ["King's Lynn", 'Norfolk', 'PE'],
  ['Colchester', 'Essex', 'CO'],
  ['Chelmsford', 'Essex', 'CM'],
  ['Guildford', 'Surrey', 'GU'],
  ['Epsom', 'Surrey', 'KT'],
  ['Tunbridge Wells', 'Kent', 'TN'],
  ['Canterbury', 'Kent', 'CT'],
  ['Lewes', 'East Sussex', 'BN'],
  ['Chichester', 'West Sussex', 'PO'],
  ['Winchester', 'Hampshire', 'SO'],
  ['Basingstoke', 'Hampshire', 'RG'],
  ['Newbury', 'Berkshire', 'RG'],
  ['Oxford', 'Oxfordshire', 'OX'],
  ['Banbury', 'Oxfordshire', 'OX'],
  ['Cirencester', 'Gloucestershire', 'GL'],
  ['Cheltenham', 'Gloucestershire', 'GL'],
  ['Salisbury', 'Wiltshire', 'SP'],
  ['Marlborough', 'Wiltshire', 'SN'],
  ['Bath', 'Somerset', 'BA'],
  ['Taunton', 'Somerset', 'TA'],
  ['Dorchester', 'Dorset', 'DT'],
  ['Exeter', 'Devon', 'EX'],
  ['Barnstaple', 'Devon', 'EX'],
  ['Truro', 'Cornwall', 'TR'],
  ['Launceston', 'Cornwall', 'PL'],
  ['Hexham', 'Northumberland', 'NE'],
  ['Durham', 'County Durham', 'DH'],
  ['Abergavenny', 'Monmouthshire', 'NP'],
  ['Brecon', 'Powys', 'LD'],
  ['Carmarthen', 'Carmarthenshire', 'SA'],
  ['Aberystwyth', 'Ceredigion', 'SY'],
  ['Perth', 'Perth and Kinross', 'PH'],
  ['Stirling', 'Stirlingshire', 'FK'],
  ['Dumfries', 'Dumfries and Galloway', 'DG'],
  ['Inverness', 'Inverness-shire', 'IV'],
  ['Ballymena', 'County Antrim', 'BT'],
  ['Enniskillen', 'County Fermanagh', 'BT'],
]
