/** Jest in ESM mode with ts-jest; see README "Development". */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The real-server tier has its own config (jest.real.config.js) and needs a control plane.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/real/'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.check.json' }] },
  setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
  // A temp directory of its own per run: what a test leaves there fails the run (test/temp-root.mjs).
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30000,
  maxWorkers: 2,
};
