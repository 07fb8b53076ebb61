// The compatibility matrix (test/compat/run.sh installs what it needs first, then runs this). Kept out of the root
// jest run: its cells need the separate prefixes under test/compat and test/fixtures/host-core5.
import base from '../../jest.config.js'

/** @type {import('jest').Config} */
export default {
  ...base,
  reporters: ['default', '<rootDir>/test/compat/cell-reporter.cjs'],
  rootDir: '../..',
  roots: ['<rootDir>/test/compat'],
  testMatch: ['<rootDir>/test/compat/*.compat.ts'],
  testTimeout: 180_000,
}
