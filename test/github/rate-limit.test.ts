import { retryDelayMs, SECONDARY_DEFAULT_WAIT_MS } from '../../src/github/rate-limit.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const resetIn = (s: number): string => String(Math.floor(NOW / 1000) + s);

describe('how long GitHub asks us to wait', () => {
  test.each([
    {
      name: 'secondary limit with retry-after seconds',
      status: 403,
      headers: { 'retry-after': '7' },
      message: 'You have exceeded a secondary rate limit',
      want: 7000,
    },
    {
      name: 'retry-after wins over an exhausted primary limit',
      status: 429,
      headers: { 'retry-after': '3', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetIn(600) },
      message: '',
      want: 3000,
    },
    {
      name: 'retry-after as an HTTP date',
      status: 429,
      headers: { 'retry-after': new Date(NOW + 12_000).toUTCString() },
      message: '',
      want: 12_000,
    },
    {
      name: 'primary limit: until x-ratelimit-reset plus a second',
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetIn(30) },
      message: 'API rate limit exceeded',
      want: 31_000,
    },
    {
      name: 'primary limit already reset: one second',
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetIn(-5) },
      message: '',
      want: 1000,
    },
    {
      name: 'secondary limit without retry-after: a minute',
      status: 403,
      headers: { 'x-ratelimit-remaining': '4000' },
      message: 'You have exceeded a secondary rate limit.',
      want: SECONDARY_DEFAULT_WAIT_MS,
    },
    {
      name: 'a plain 403 (no permission) is not a rate limit',
      status: 403,
      headers: { 'x-ratelimit-remaining': '4999' },
      message: 'Resource not accessible by integration',
      want: undefined,
    },
    {
      name: 'a 404 is not a rate limit',
      status: 404,
      headers: { 'retry-after': '5' },
      message: 'Not Found',
      want: undefined,
    },
  ])('$name', ({ status, headers, message, want }) => {
    expect(retryDelayMs(status, headers, message, NOW)).toBe(want);
  });
});
