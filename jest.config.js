/** @type {import('jest').Config} */
export default {
  extensionsToTreatAsEsm: ['.ts'],
  maxWorkers: 2,
  moduleFileExtensions: ['ts', 'cts', 'js', 'cjs', 'mjs', 'json'],
  // Sources import each other by their built names: `x.js` is `x.ts`, and our CommonJS modules (the guards
  // `x-guard.cjs` and `process-tree.cjs`) are `.cts` in src/ (only those: packages have .cjs files of their own);
  // a built module in dist/ that a test imports finds its sibling `.cjs` as it is.
  moduleNameMapper: {'^(\\.{1,2}/(?:.*/)?(?:[\\w-]+-guard|process-tree))\\.cjs$': ['$1.cts', '$1.cjs'], '^(\\.{1,2}/.*)\\.js$': '$1'},
  reporters: ['default', '<rootDir>/test/summary-reporter.cjs'],
  setupFiles: ['<rootDir>/test/setup.ts'],
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 120_000,
  transform: {'^.+\\.c?ts$': ['ts-jest', {tsconfig: 'tsconfig.json', useESM: true}]},
}
