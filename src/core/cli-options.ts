// Commander options made from an options schema: each property a kebab-case flag with
// the schema's description as help, integers parsed, enums as choices, booleans as
// on/off switches. So a command's flags are written once, in schemas/.
import { InvalidArgumentError, Option } from 'commander'

export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

type OptionSchema = { type: string; enum?: readonly (string | number)[]; default?: unknown; description?: string }

function parseSwitch(value: string): boolean {
  if (['on', 'true', 'yes', '1'].includes(value)) return true
  if (['off', 'false', 'no', '0'].includes(value)) return false
  throw new InvalidArgumentError('expected on or off.')
}

function parseInteger(value: string): number {
  if (!/^-?[0-9]+$/.test(value)) throw new InvalidArgumentError('expected a whole number.')
  return Number(value)
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value)
  } catch {
    throw new InvalidArgumentError('expected JSON.')
  }
}

export function schemaOptions(schema: { properties: object }): Option[] {
  return Object.entries(schema.properties as Record<string, OptionSchema>).map(([name, property]) => {
    const flag = `--${kebab(name)}`
    const fallback =
      property.default === undefined || property.default === false
        ? ''
        : ` (default: ${property.type === 'boolean' ? (property.default ? 'on' : 'off') : String(property.default)})`
    const description = `${property.description ?? ''}${fallback}`
    // a switch given alone (--trust-proxy) means on
    const option =
      property.type === 'boolean'
        ? new Option(`${flag} [on|off]`, description).argParser(parseSwitch)
        : new Option(`${flag} <${property.type === 'integer' ? 'n' : property.type === 'object' ? 'json' : 'value'}>`, description)
    if (property.enum) option.choices(property.enum.map(String))
    // set after choices, which replaces the parser: an integer enum (--auth-status) still arrives as a number
    if (property.type === 'integer') option.argParser(parseInteger)
    if (property.type === 'object') option.argParser(parseJson)
    return option
  })
}

/** Turns "option pageSize" in a validation message into the flag the user typed. */
export const asFlags = (message: string) => message.replace(/option ([a-zA-Z]+)/g, (_, name: string) => `--${kebab(name)}`)
