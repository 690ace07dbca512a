// The links between records that every board must keep, checked on a restored board (a
// generated one keeps them by construction, src/store/relations.ts; the control API's
// adds by attaching through the same table, src/store/adds.ts): for every relation of
// src/store/relation-table.ts, each child's owner is on the board, and every link an
// owner lists leads to a record that is there and is theirs.
import { BoardError } from '../core/errors.js'
import type { Collection } from './collection.js'
import { hrefId, RELATION_LIST, type BoardRecords, type CollectionName, type OwnerLookup } from './relation-table.js'

export type LinkedRecords = { [C in CollectionName]: Collection<BoardRecords[C]> }

const OWNER_NOUN = { candidates: 'candidate', jobs: 'job' } as const

export function checkLinks(records: LinkedRecords, lookup: OwnerLookup): void {
  for (const [, relation] of RELATION_LIST) {
    if (relation.outlived) continue
    const owners = records[relation.owner]
    for (const child of records[relation.child].values()) {
      const owner = relation.ownerOf(child, lookup)
      if (owner === 0 && relation.optional) continue
      if (owner === undefined || !owners.has(owner)) {
        throw new BoardError('INTERNAL', `${relation.describe(child)} belongs to ${OWNER_NOUN[relation.owner]} ${owner ?? 0}, which is not on the board.`)
      }
    }
  }
  for (const c of records.candidates.values()) {
    for (const [, relation] of RELATION_LIST) {
      const mirror = relation.mirror
      if (!mirror?.link) continue
      for (const entry of c[mirror.list]) {
        const href = mirror.link.href(entry)
        const child = records[relation.child].get(hrefId(href))
        if (child === undefined || relation.ownerOf(child, lookup) !== c.id) {
          throw new BoardError('INTERNAL', `Candidate ${c.id} lists ${href}, which is not one of their ${mirror.link.noun}.`)
        }
      }
    }
  }
}
