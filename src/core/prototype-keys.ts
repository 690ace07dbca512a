// The one check every door that takes JSON from outside makes first: a key that names an
// object's prototype (`__proto__`, `constructor`, `prototype`) is refused at any depth,
// naming where it is. The API's and the control API's bodies (src/fake/http/body.ts), the
// in-process control API (src/fake/control-api.ts), saved boards, scenario, activity, profile
// and ledger files, and JSON given as an option's value all call it; each says it in its
// own error class (a 412 over HTTP).

/** Keys no input may hold: they name an object's prototype, or reach it if merged into one. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** Text that may hold one of them: the names, or any \\u escape (which could spell one). */
export const MAY_HOLD_PROTOTYPE_KEY = /__proto__|constructor|prototype|\\u/

/**
 * The path of the first prototype key in a value (`store.jobs[0].__proto__`), in the order
 * the value is written, or undefined. JSON.parse (and YAML's toJS) make every key an own
 * property, `__proto__` too, so a walk of own keys sees them all. The walk keeps its own
 * stack and visits an object once: a value given in process may nest deeper than the call
 * stack, or hold itself.
 */
export function prototypeKeyPath(value: unknown): string | undefined {
  const seen = new WeakSet<object>()
  // [value, its path, whether its own key is a prototype key]
  const stack: Array<[unknown, string, boolean]> = [[value, '', false]]
  while (stack.length > 0) {
    const [node, path, refused] = stack.pop() as [unknown, string, boolean]
    if (refused) return path
    if (node === null || typeof node !== 'object' || seen.has(node)) continue
    seen.add(node)
    // children pushed last first: the walk meets them in the order they are written, depth first
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${path}[${i}]`, false])
      continue
    }
    const keys = Object.keys(node)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string
      stack.push([(node as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, PROTOTYPE_KEYS.has(key)])
    }
  }
  return undefined
}

/**
 * What a refusal of a prototype key says: the subject, the key and where
 * (`The body holds the key __proto__ (at store.jobs[0].__proto__), which is refused: …`).
 */
export function prototypeKeyRefusal(subject: string, path: string, why: string): string {
  const key = path.slice(path.lastIndexOf('.') + 1)
  return `${subject} holds the key ${key} (${path === key ? 'at the top level' : `at ${path}`}), which is refused: ${why}.`
}
