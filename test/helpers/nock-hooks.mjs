// Module hooks for use-nock.mjs: `nock` (and nothing else) is resolved from another folder.
let parentURL

export async function initialize(data) {
  parentURL = data.parentURL
}

export async function resolve(specifier, context, next) {
  return specifier === 'nock' ? next(specifier, { ...context, parentURL }) : next(specifier, context)
}
