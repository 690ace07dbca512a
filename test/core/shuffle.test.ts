// The keyed shuffle (src/core/random.ts, Shuffle): a permutation of 0..size-1 for every
// size and key, answered both ways, the same for the same key.
import t from 'tap'
import { Shuffle } from '../../src/core/random.js'

t.test('a shuffle puts every place of 0..size-1 somewhere in it once, and answers backwards', async (t) => {
  for (const size of [0, 1, 2, 3, 4, 5, 16, 17, 48, 255, 1000, 4097]) {
    for (const key of [0, 7, 0xffffffff]) {
      const shuffle = new Shuffle(size, key)
      const seen = new Set<number>()
      let backwards = true
      for (let x = 0; x < size; x++) {
        const y = shuffle.at(x)
        if (y >= 0 && y < size) seen.add(y)
        backwards &&= shuffle.from(y) === x
      }
      t.ok(seen.size === size && backwards, `size ${size}, key ${key}: a permutation, and from() undoes at()`)
    }
  }
})

t.test('the same key gives the same shuffle, another key another', async (t) => {
  const order = (key: number) => Array.from({ length: 64 }, (_, x) => new Shuffle(64, key).at(x))
  t.same(order(42), order(42))
  t.not(order(42).join(), order(43).join())
  t.not(order(42).join(), Array.from({ length: 64 }, (_, x) => x).join(), 'not the identity')
})
