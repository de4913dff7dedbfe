import { chooseOutput } from '../../src/entry/output.js';
import { createStatus } from '../../src/entry/status.js';
import type { Progress } from '../../src/teardown/progress.js';

describe('what the CLI prints, and how', () => {
  const rows: {
    name: string;
    flag?: string;
    tty: boolean;
    env: Record<string, string>;
    expect: { format: string; color: boolean; width: number };
  }[] = [
    {
      name: 'a terminal: text, coloured, its width',
      tty: true,
      env: {},
      expect: { format: 'text', color: true, width: 132 },
    },
    {
      name: 'a terminal with NO_COLOR=1',
      tty: true,
      env: { NO_COLOR: '1' },
      expect: { format: 'text', color: false, width: 132 },
    },
    {
      name: 'NO_COLOR set to anything (no-color.org)',
      tty: true,
      env: { NO_COLOR: 'false' },
      expect: { format: 'text', color: false, width: 132 },
    },
    {
      name: 'NO_COLOR empty does not count',
      tty: true,
      env: { NO_COLOR: '' },
      expect: { format: 'text', color: true, width: 132 },
    },
    {
      name: 'TERM=dumb',
      tty: true,
      env: { TERM: 'dumb' },
      expect: { format: 'text', color: false, width: 132 },
    },
    {
      name: 'a pipe: the same plain text, 80 columns wide',
      tty: false,
      env: {},
      expect: { format: 'text', color: false, width: 80 },
    },
    {
      name: 'a pipe, -o markdown: the job summary',
      flag: 'markdown',
      tty: false,
      env: {},
      expect: { format: 'markdown', color: false, width: 80 },
    },
    {
      name: 'a pipe, --output text: no colour, COLUMNS',
      flag: 'text',
      tty: false,
      env: { COLUMNS: '90' },
      expect: { format: 'text', color: false, width: 90 },
    },
    {
      name: 'a terminal, --output json',
      flag: 'json',
      tty: true,
      env: {},
      expect: { format: 'json', color: true, width: 132 },
    },
  ];
  test.each(rows)('$name', (r) => {
    expect(chooseOutput(r.flag, { isTTY: r.tty, columns: r.tty ? 132 : undefined }, r.env)).toEqual(r.expect);
  });

  test('an unknown format is an input error naming the flag and what is allowed', () => {
    expect(() => chooseOutput('html', { isTTY: true }, {})).toThrow(
      '--output (-o) is "html"; allowed: text, markdown, json.',
    );
  });
});

const progress = (gone: number, terminating: string[], elapsedMs: number): Progress => ({
  total: gone + terminating.length,
  gone,
  terminating: terminating.map((name) => ({ name, forMs: 1_000 })),
  waitingOther: 0,
  elapsedMs,
});

describe('progress on stderr', () => {
  test('a pipe gets a line per change of the counts, never the same counts twice', () => {
    const out: string[] = [];
    const s = createStatus({ isTTY: false, write: (t) => out.push(t) }, {});
    s.onProgress(progress(0, ['a', 'b', 'c'], 0));
    s.onProgress(progress(0, ['a', 'b', 'c'], 5_000));
    s.onProgress(progress(1, ['b', 'c'], 7_000));
    s.logger.info('b: diagnosed');
    s.done();
    expect(out.join('')).toBe(
      'progress: 0 of 3 gone · 3 Terminating · 0ms\nprogress: 1 of 3 gone · 2 Terminating · 7s\nb: diagnosed\n',
    );
  });

  test('a terminal gets one line redrawn in place, warnings above it, and a clean line at the end', () => {
    const out: string[] = [];
    let now = 0;
    const s = createStatus({ isTTY: true, columns: 80, write: (t) => out.push(t) }, {}, () => now);
    s.onProgress(progress(3, ['d', 'e'], 72_000));
    now = 2_000;
    s.logger.info('d: diagnosed');
    s.logger.warning('e: the watch ended');
    s.done();
    expect(out.join('')).toBe(
      '3 of 5 gone · 2 Terminating · 1m 12s' +
        '\r\u001b[2K' +
        'warning: e: the watch ended\n' +
        '3 of 5 gone · 2 Terminating · 1m 14s' +
        '\r\u001b[2K',
    );
  });
});
