import nock from 'nock';
import { removeTempDirs } from './helpers/temp.js';

// nock state leaks between test files that share a worker; reset it after each file.
afterAll(() => {
  nock.cleanAll();
  nock.enableNetConnect();
  nock.restore();
  removeTempDirs();
});
