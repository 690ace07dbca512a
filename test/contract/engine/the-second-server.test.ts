// The deviation engine (issue 43 item 3) in front of the second server (test/helpers/other-board/,
// style a): every operator × exchange pair ends caught, legal with words, or a known finding;
// the counts are docs/contract.md's. Run by npm run test:engine, beside the fake's file.
import t from 'tap'
import { engineTest } from './suite.js'

engineTest(t, 'the second server')
