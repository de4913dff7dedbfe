/** The real-server tier (`npm run test:real`): one real control plane per run, shared by the suites in band. */
import base from './jest.config.js';

export default {
  ...base,
  roots: ['<rootDir>/test/real'],
  testPathIgnorePatterns: [],
  globalSetup: '<rootDir>/test/real/global-setup.mjs',
  globalTeardown: '<rootDir>/test/real/global-teardown.mjs',
  testTimeout: 120000,
  // The suites share one control plane (and one restarts its API server): never two at once.
  maxWorkers: 1,
};
