// The deviation engine (issue 43 item 3) in front of the fake: every operator × exchange pair
// of a read-only run, the --writes turns and the rate-limit group ends caught, legal with
// words, or a known finding; the counts are docs/contract.md's. Run by npm run test:engine
// (.ci/run runs it once, on Node 24), not by npm test: see suite.ts.
import t from 'tap'
import { engineTest } from './suite.js'

engineTest(t, 'the fake')
