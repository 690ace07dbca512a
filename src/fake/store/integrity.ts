// The links between records that every board must keep, checked on a restored board (a
// generated one keeps them by construction, src/fake/store/relations.ts; the control API's
// adds by attaching through the same table, src/fake/store/adds.ts): for every relation of
// src/fake/store/relation-table.ts, each child's owner is on the board, and every link an
// owner lists leads to a record that is there and is theirs. A board laid over a
// generated one (a compact saved board) is checked where it differs from it: its written
// records, and the generated owners of records written over generated ones.
import { BoardError, boardError } from '../../core/errors.js'
import type { Candidate } from '../../core/types.js'
import type { Collection } from './collection.js'
import { hrefId, RELATION_LIST, type BoardRecords, type CollectionName, type OwnerLookup } from './relation-table.js'

export type LinkedRecords = { [C in CollectionName]: Collection<BoardRecords[C]> }

/**
 * Which records to check, each with the field a refusal names (undefined: a BoardError
 * without a field, as for a full saved board).
 */
export interface LinkScope {
  children<C extends CollectionName>(name: C): Iterable<readonly [string | undefined, BoardRecords[C]]>
  candidates(): Iterable<readonly [string | undefined, Candidate]>
}

const OWNER_NOUN = { candidates: 'candidate', jobs: 'job' } as const

/** Every record of the board, as a full saved board is checked. */
export const wholeBoard = (records: LinkedRecords): LinkScope => ({
  *children(name) {
    for (const record of records[name].values()) yield [undefined, record] as const
  },
  *candidates() {
    for (const record of records.candidates.values()) yield [undefined, record] as const
  },
})

const refuse = (message: string, field: string | undefined) =>
  field === undefined ? new BoardError('INTERNAL', message) : boardError.invalidField(`${message.slice(0, -1)} (field ${field}).`, field)

export function checkLinks(records: LinkedRecords, lookup: OwnerLookup, scope: LinkScope = wholeBoard(records)): void {
  for (const [, relation] of RELATION_LIST) {
    if (relation.outlived) continue
    const owners = records[relation.owner]
    for (const [field, child] of scope.children(relation.child)) {
      const owner = relation.ownerOf(child, lookup)
      if (owner === 0 && relation.optional) continue
      if (owner === undefined || !owners.has(owner)) {
        throw refuse(`${relation.describe(child)} belongs to ${OWNER_NOUN[relation.owner]} ${owner ?? 0}, which is not on the board.`, field)
      }
    }
  }
  for (const [field, c] of scope.candidates()) {
    for (const [, relation] of RELATION_LIST) {
      const mirror = relation.mirror
      if (!mirror?.link) continue
      for (const entry of c[mirror.list]) {
        const href = mirror.link.href(entry)
        const child = records[relation.child].get(hrefId(href))
        if (child === undefined || relation.ownerOf(child, lookup) !== c.id) {
          throw refuse(`Candidate ${c.id} lists ${href}, which is not one of their ${mirror.link.noun}.`, field)
        }
      }
    }
  }
}
