// Commander options made from an options schema: each property a kebab-case flag with
// the schema's description as help, integers parsed, enums as choices, booleans as
// on/off switches. So a command's flags are written once, in schemas/. A command may take
// each option from an environment variable too (fromEnvironment: serve's JOBBOARD_PORT…),
// a flag given winning over it, and it over the default.
import { InvalidArgumentError, Option } from 'commander'
import { OptionsError } from './errors.js'
import { prototypeKeyPath, prototypeKeyRefusal } from './prototype-keys.js'

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

function parseNumber(value: string): number {
  if (!/^-?([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(value)) throw new InvalidArgumentError('expected a number.')
  return Number(value)
}

function parseJson(value: string): unknown {
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    throw new InvalidArgumentError('expected JSON.')
  }
  const keyPath = prototypeKeyPath(parsed)
  if (keyPath !== undefined) throw new InvalidArgumentError(prototypeKeyRefusal('the JSON', keyPath, 'no option has a field of that name'))
  return parsed
}

/** `JOBBOARD_PAGE_SIZE` for pageSize: the environment variable of an option. */
export const envName = (name: string) => `JOBBOARD_${kebab(name).replace(/-/g, '_').toUpperCase()}`

/**
 * The options not given as flags that the environment gives (JOBBOARD_<FLAG>, an empty one
 * counting as unset), each parsed as its flag is and then held to `check` alone; a bad
 * value throws an OptionsError that names the variable and why, as a bad flag's does (a
 * value that does not parse is not repeated). `check` throws naming the option as
 * `option name` or `--flag`; the variable takes that name's place.
 */
export function fromEnvironment(options: readonly Option[], flags: Record<string, unknown>, env: NodeJS.ProcessEnv, check: (given: Record<string, unknown>) => void): Record<string, unknown> {
  const taken: Record<string, unknown> = {}
  for (const option of options) {
    const name = option.attributeName()
    const variable = envName(name)
    const raw = env[variable]
    if (flags[name] !== undefined || raw === undefined || raw === '') continue
    let value: unknown = raw
    try {
      if (option.argChoices && !option.argChoices.includes(raw)) throw new InvalidArgumentError(`allowed values are ${option.argChoices.join(', ')}.`)
      if (option.parseArg) value = option.parseArg(raw, undefined)
    } catch (error) {
      throw new OptionsError(`${variable} is invalid: ${(error as Error).message.replace(/\.$/, '')}`)
    }
    try {
      check({ [name]: value })
    } catch (error) {
      const said = (error as Error).message
      const named = said.replaceAll(`option ${name}`, variable).replaceAll(`--${kebab(name)}`, variable)
      throw Object.assign(error as Error, { message: named === said ? `${variable}: ${said}` : named })
    }
    taken[name] = value
  }
  return taken
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
        : new Option(`${flag} <${property.type === 'integer' || property.type === 'number' ? 'n' : property.type === 'object' || property.type === 'array' ? 'json' : 'value'}>`, description)
    if (property.enum) option.choices(property.enum.map(String))
    // set after choices, which replaces the parser: an integer enum (--auth-status) still arrives as a number
    if (property.type === 'integer') option.argParser(parseInteger)
    if (property.type === 'number') option.argParser(parseNumber)
    if (property.type === 'object' || property.type === 'array') option.argParser(parseJson)
    return option
  })
}

/** Turns "option pageSize" in a validation message into the flag the user typed. */
export const asFlags = (message: string) => message.replace(/option ([a-zA-Z]+)/g, (_, name: string) => `--${kebab(name)}`)
