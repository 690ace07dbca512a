// Deep freezing, for settings and for the records the store hands out.
export type DeepReadonly<T> = T extends (infer U)[]
  ? ReadonlyArray<DeepReadonly<U>>
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T

export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    // for...in rather than Object.values: no array per object, and a million records are frozen at start
    for (const key in value) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value as DeepReadonly<T>
}
