/** @type {import('jest').Config} */
export default {
  extensionsToTreatAsEsm: ['.ts'],
  maxWorkers: 2,
  moduleNameMapper: {'^(\\.{1,2}/.*)\\.js$': '$1'},
  reporters: ['default', '<rootDir>/test/summary-reporter.cjs'],
  setupFiles: ['<rootDir>/test/setup.ts'],
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 120_000,
  transform: {'^.+\\.ts$': ['ts-jest', {tsconfig: 'tsconfig.json', useESM: true}]},
}
