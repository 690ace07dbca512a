// The accounts one fake serves. The real service is one board per customer account, so a
// fake may serve several: each account is a board of its own (store, clock, rate-limit
// windows, journal, faults, activity, verdict) with one user, the account's name. A
// request's Basic user name picks the account; its password is then checked as ever. An
// account's board is built when it is first needed, so 64 accounts start as fast as one.
// Accounts given no seed are all on the fake's seed (the same board: byte-identical first
// answers for every worker of a parallel run) unless an account seed step separates them.
// Accounts are declared by the `accounts` option (`serve --account`, `--accounts`,
// `createMockServer({ accounts })`) or, when it gives none, by the fake's scenario (its
// `accounts`); both go through one set of rules (`accountsProblem`, src/fake/scenario.ts).
// A fake declaring none has one, named `default`, whose users are its scenario's.
import type { IncomingHttpHeaders } from 'node:http'
import { Board } from './board/board.js'
import { Controller } from './control-api.js'
import { BoardError, boardError } from '../core/errors.js'
import { deepFreeze } from '../core/freeze.js'
import type { ScenarioFile } from '../core/types.js'
import { effectiveScenario, type ResolvedOptions } from './options.js'
import { ACCOUNT_NAME, accountScenarioRef, accountsProblem, loadDeclaring, type LoadedScenario, MAX_ACCOUNT_SEED, ScenarioError, sharedSchemas } from './scenario.js'

/** One account a fake serves: its name is its API user name. */
export interface AccountInput {
  /** A plain token (letters, digits, `.`, `_`, `-`; at most 64): the API user name and the control API's `/__mock/accounts/{name}`. */
  name: string
  /** Its API password; default: the option password, else its scenario's first credential's. */
  password?: string
  /** Its scenario, by name, path or as an object (not one declaring accounts of its own); default: the fake's. In a scenario file, a path is taken from that file's folder. */
  scenario?: string | ScenarioFile
  /** Its seed; default: the fake's seed (or its scenario's) plus its position (from 0) × the account seed step (`accountSeedStep`, default 0: every account on the same board). */
  seed?: number
}

/** The name of the one account of a fake given no accounts. */
export const DEFAULT_ACCOUNT = 'default'

/** What an account name may be (schemas/scenario.ts): it is a user name and a path segment. */
export { ACCOUNT_NAME }

/** Authorization headers already decoded to a user name: a bounded map, cleared when full. */
const MAX_KNOWN_HEADERS = 1_000

export class Account {
  readonly name: string
  readonly #make: () => Board
  #board: Board | undefined
  readonly controller: Controller

  constructor(name: string, make: () => Board) {
    this.name = name
    this.#make = make
    this.controller = new Controller(() => this.board)
  }

  /** The account's board, built on first use. */
  get board(): Board {
    this.#board ??= this.#make()
    return this.#board
  }

  /** Whether its board has been built (its first request came, or its control was called). */
  get built(): boolean {
    return this.#board !== undefined
  }
}

function refuse(message: string): BoardError {
  return boardError.invalidField(message, 'accounts')
}

/**
 * Where the accounts come from, and how a refusal of one is said: those of the option as a
 * 412 on `accounts` (serve turns it into a usage line), those of a scenario file as a
 * ScenarioError naming the file and the field (`accounts[1].scenario`), as any fault of it.
 */
interface Declaration {
  readonly list: readonly AccountInput[]
  /** The folder an account's scenario path is taken from (a declaring file's), or none: as given. */
  readonly folder: string | undefined
  readonly refuse: (message: string, field: string) => Error
  /** The declaring scenario, loaded already. */
  readonly scenario?: LoadedScenario
}

function fromOption(list: readonly AccountInput[]): Declaration {
  return { list, folder: undefined, refuse: (message) => refuse(message) }
}

/** The accounts the fake's scenario declares, if it declares any: read from it once, at start. */
function fromScenario(scenario: string | ScenarioFile, compiled: ReturnType<typeof sharedSchemas>): Declaration | undefined {
  const { whole, folder, label } = loadDeclaring(scenario, { compiled })
  if (whole.accounts === undefined || whole.accounts.length === 0) return undefined
  return { list: whole.accounts as readonly AccountInput[], folder, scenario: whole, refuse: (message, field) => new ScenarioError(`${label} is invalid at ${field}: ${message}`, field) }
}

/** The user name an Authorization header gives, if it is Basic and decodes. */
function basicUserName(header: string): string | undefined {
  if (header.length < 7 || header.slice(0, 6).toLowerCase() !== 'basic ') return undefined
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0 ? undefined : decoded.slice(0, colon)
}

export class Accounts {
  /** The first account: the one today's control routes act on, and the board of requests naming no account. */
  readonly first: Account
  /** True when accounts were declared: requests are then routed by their user name. */
  readonly declared: boolean
  readonly #byName = new Map<string, Account>()
  readonly #known = new Map<string, Account | null>()

  /**
   * `single` builds the one board of a fake declaring no accounts; `declared` lists the
   * option's (each refusal a 412 naming the account), which replace those the default
   * scenario declares (each refusal a ScenarioError naming the file, the account and the
   * field); `built` runs on each board as it is made (an activity to play).
   */
  constructor(
    options: ResolvedOptions,
    declared: readonly AccountInput[] | undefined,
    defaultScenario: string | ScenarioFile,
    single: () => Board,
    built: (board: Board) => void = () => {},
  ) {
    const compiled = sharedSchemas()
    // the option's accounts replace the scenario's; only without them is the scenario read for its own
    const declaration = declared !== undefined && declared.length > 0 ? fromOption(declared) : fromScenario(defaultScenario, compiled)
    if (declaration === undefined) {
      this.declared = false
      this.first = new Account(DEFAULT_ACCOUNT, () => {
        const board = single()
        built(board)
        return board
      })
      this.#byName.set(DEFAULT_ACCOUNT, this.first)
      return
    }
    this.declared = true
    const { list, folder } = declaration
    const problem = accountsProblem(list, { objects: folder === undefined })
    if (problem !== undefined) throw declaration.refuse(problem.message, problem.field)
    // one load per scenario named, however many accounts name it
    const loaded = new Map<string | ScenarioFile, LoadedScenario>()
    /** Each scenario as loaded, its accounts left out: what each account's board is built from. */
    const plain = new Map<string | ScenarioFile, LoadedScenario>()
    const keep = (source: string | ScenarioFile, whole: LoadedScenario) => {
      const { accounts: _accounts, ...rest } = whole
      plain.set(source, deepFreeze(rest) as LoadedScenario)
      loaded.set(source, effectiveScenario(whole, options))
    }
    if (declaration.scenario !== undefined) keep(defaultScenario, declaration.scenario)
    let extraFields: string | undefined
    /** An account's scenario, loaded once however many accounts name it; a refusal names the account. */
    const scenarioOf = (source: string | ScenarioFile, named: AccountInput['scenario'], name: string, place: string): LoadedScenario => {
      let scenario = loaded.get(source)
      if (scenario !== undefined) return scenario
      let nested = false
      try {
        const { whole } = loadDeclaring(source, { compiled, redact: true })
        // the fake's own scenario may declare accounts (these, or ones the option replaced); one an account names may not
        nested = named !== undefined && whole.accounts !== undefined && whole.accounts.length > 0
        keep(source, whole)
        scenario = loaded.get(source) as LoadedScenario
      } catch (error) {
        if (error instanceof ScenarioError || error instanceof BoardError) throw declaration.refuse(`Account "${name}": ${error.message}`, `${place}.scenario`)
        throw error
      }
      if (nested) {
        throw declaration.refuse(
          `Account "${name}": its scenario "${scenario.name}" declares accounts of its own, which an account's scenario may not: declare every account in one list.`,
          `${place}.scenario`,
        )
      }
      return scenario
    }
    /** The account seed step: the option's, else the fake's scenario's (read only when an account has no seed), else 0. */
    let step = options.accountSeedStep
    const stepFor = (name: string, place: string): number => {
      step ??= scenarioOf(defaultScenario, undefined, name, place).accountSeedStep ?? 0
      return step
    }
    list.forEach((input, index) => {
      const { name } = input
      const place = `accounts[${index}]`
      const named = input.scenario
      // a path a scenario file gives is taken from that file's folder
      const source = named === undefined ? defaultScenario : typeof named === 'string' && folder !== undefined ? accountScenarioRef(named, folder) : named
      const scenario = scenarioOf(source, named, name, place)
      // the routes' serializers are built once, with the first account's extra record fields
      const fields = JSON.stringify(scenario.behaviour.extraFields)
      extraFields ??= fields
      if (fields !== extraFields) {
        throw declaration.refuse(`Account "${name}": its scenario gives other extra record fields (behaviour.extraFields) than the first account's; one fake serves one set.`, `${place}.scenario`)
      }
      const from = options.seed ?? scenario.seed
      const seed = input.seed ?? from + index * stepFor(name, place)
      if (!Number.isSafeInteger(seed) || seed < 0 || seed > MAX_ACCOUNT_SEED) {
        const how = input.seed === undefined ? ` (the seed ${from} plus ${index} × the account seed step ${step})` : ''
        throw declaration.refuse(`Account "${name}": its seed ${seed}${how} is not an integer from 0 to ${MAX_ACCOUNT_SEED}.`, `${place}.seed`)
      }
      const own = Object.freeze({ ...options, seed, username: name, ...(input.password === undefined ? {} : { password: input.password }) }) as ResolvedOptions
      const account = new Account(name, () => {
        let board: Board
        try {
          board = new Board(own, source, name, plain.get(source))
        } catch (error) {
          if (error instanceof ScenarioError) throw refuse(`Account "${name}": ${error.message}`)
          throw error
        }
        built(board)
        return board
      })
      this.#byName.set(name, account)
    })
    this.first = this.#byName.values().next().value as Account
  }

  /** Every account, in the order declared. */
  list(): Account[] {
    return [...this.#byName.values()]
  }

  /** The account of this name, if the fake serves it. */
  get(name: string): Account | undefined {
    return this.#byName.get(name)
  }

  /** The account of this name, or the 404 naming it. */
  require(name: string): Account {
    const account = this.#byName.get(name)
    if (account === undefined) throw boardError.notFound('Account', `"${name}"`)
    return account
  }

  /**
   * The board a request is answered on: its Basic user's account, or the first account's
   * when it names none (no credentials, another scheme, an unknown user: refused there as ever).
   */
  boardOf(request: { readonly headers: IncomingHttpHeaders }): Board {
    if (!this.declared) return this.first.board
    const header = request.headers.authorization
    if (header === undefined) return this.first.board
    let account = this.#known.get(header)
    if (account === undefined) {
      const user = basicUserName(header)
      account = (user === undefined ? undefined : this.#byName.get(user)) ?? null
      if (this.#known.size >= MAX_KNOWN_HEADERS) this.#known.clear()
      this.#known.set(header, account)
    }
    return (account ?? this.first).board
  }

  /** Every board built so far (to stop their activities on close). */
  builtBoards(): Board[] {
    return this.list()
      .filter((account) => account.built)
      .map((account) => account.board)
  }
}
