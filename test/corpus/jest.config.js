// The corpus of published CLIs (test/corpus/run.sh installs them into a cache first, then runs this). Kept out of
// the root jest run: it needs the cached installs and Node 22.
import base from '../../jest.config.js'

/** @type {import('jest').Config} */
export default {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test/corpus'],
  testMatch: ['<rootDir>/test/corpus/*.corpus.ts'],
  testTimeout: 300_000,
}
