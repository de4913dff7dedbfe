import {
  breakCommands,
  fence,
  html,
  md,
  mdLink,
  safeLines,
  safeLog,
  visible,
} from '../../src/report/escape.js';

describe('breakCommands keeps cluster text from forming workflow commands', () => {
  test.each([
    { name: 'a command', given: '::error::boom', expect: ':\u200b:error:\u200b:boom' },
    {
      name: 'a legacy command on its own line',
      given: 'ok\n##[error]boom',
      expect: 'ok\n#\u200b#[error]boom',
    },
    { name: 'a legacy group', given: '##[group]x', expect: '#\u200b#[group]x' },
    { name: 'plain text', given: '## heading #1 [x]', expect: '## heading #1 [x]' },
  ])('$name', ({ given, expect: want }) => {
    expect(breakCommands(given)).toBe(want);
  });
});

/** What no sink may carry raw: C0 controls but the line feed, DEL, C1 controls, bidirectional controls and marks. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** One of each class of character no sink may pass on raw, and how it shows. */
const CONTROLS = [
  { name: 'ESC (a CSI: clear the screen)', given: '\u001b[2J', shown: '\\u001b[2J' },
  { name: 'BEL', given: 'ding\u0007', shown: 'ding\\u0007' },
  {
    name: 'an OSC 8 link',
    given: '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007',
    shown: '\\u001b]8;;https://evil.example\\u0007click\\u001b]8;;\\u0007',
  },
  {
    name: 'an OSC 52 clipboard write',
    given: '\u001b]52;c;cm0gLXJmIH4=\u0007',
    shown: '\\u001b]52;c;cm0gLXJmIH4=\\u0007',
  },
  { name: 'NUL and DEL', given: 'a\u0000b\u007f', shown: 'a\\u0000b\\u007f' },
  { name: 'C1 CSI (U+009B)', given: '\u009b31m', shown: '\\u009b31m' },
  { name: 'C1 OSC (U+009D)', given: '\u009d0;title\u009c', shown: '\\u009d0;title\\u009c' },
  { name: 'a right-to-left override (U+202E)', given: 'txt.\u202eexe', shown: 'txt.\\u202eexe' },
  { name: 'an embedding and its pop (U+202A, U+202C)', given: '\u202aa\u202c', shown: '\\u202aa\\u202c' },
  {
    name: 'isolates (U+2066–U+2069)',
    given: '\u2066\u2067\u2068x\u2069',
    shown: '\\u2066\\u2067\\u2068x\\u2069',
  },
  { name: 'marks (U+200E, U+200F, U+061C)', given: '\u200e\u200f\u061c', shown: '\\u200e\\u200f\\u061c' },
];

describe('visible: one rule for every sink', () => {
  test.each(CONTROLS)('$name is shown as its escape', ({ given, shown }) => {
    expect(visible(given)).toBe(shown);
    expect(visible(given, true)).toBe(shown);
  });

  test.each([
    {
      name: 'line breaks and tabs, one line',
      given: 'a\r\n\tb\u2028c\u0085d',
      lines: false,
      expect: 'a b c d',
    },
    { name: 'line breaks kept, tabs spaces', given: 'a\r\nb\tc\nd', lines: true, expect: 'a\nb c\nd' },
    { name: 'separators shown when lines are kept', given: 'a\u2028b', lines: true, expect: 'a\\u2028b' },
    {
      name: 'what is safe stays',
      given: 'ünïcödé 名前 ✅ \u200b',
      lines: false,
      expect: 'ünïcödé 名前 ✅ \u200b',
    },
  ])('$name', ({ given, lines, expect: want }) => {
    expect(visible(given, lines)).toBe(want);
  });

  test('on JSON text it is lossless: the escapes are JSON escapes', () => {
    const value = { note: CONTROLS.map((c) => c.given).join(' \n ') };
    const json = visible(JSON.stringify(value, null, 2), true);
    expect(JSON.parse(json)).toEqual(value);
    expect(json).not.toMatch(RAW);
  });

  test.each([
    { name: 'md', render: (t: string) => md(t) },
    { name: 'html', render: (t: string) => html(t) },
    { name: 'fence', render: (t: string) => fence(t) },
    { name: 'safeLog', render: (t: string) => safeLog(t) },
    { name: 'safeLines', render: (t: string) => safeLines(t) },
  ])('$name builds on it: no control character gets through', ({ render }) => {
    for (const { given } of CONTROLS) expect(render(`x ${given} y`)).not.toMatch(RAW);
  });
});

describe('mdLink: links only from parsed URLs on the expected server', () => {
  const GH = 'https://github.com';
  test.each([
    {
      name: 'a pull request',
      url: 'https://github.com/acme/shop/pull/7',
      origin: GH,
      expect: '[#7](https://github.com/acme/shop/pull/7)',
    },
    {
      name: 'a ) that would end the link',
      url: 'https://github.com/acme/shop/pull/7)[x](https://evil.example)',
      origin: GH,
      expect: '[#7](https://github.com/acme/shop/pull/7%29%5Bx%5D%28https://evil.example%29)',
    },
    { name: 'another host', url: 'https://evil.example/acme/shop/pull/7', origin: GH, expect: '#7' },
    { name: 'a look-alike host', url: 'https://github.com.evil.example/pull/7', origin: GH, expect: '#7' },
    {
      name: 'credentials in the URL',
      url: 'https://github.com@evil.example/pull/7',
      origin: GH,
      expect: '#7',
    },
    { name: 'javascript:', url: 'javascript:alert(1)', origin: GH, expect: '#7' },
    { name: 'not a URL', url: 'pull 7', origin: GH, expect: '#7' },
    {
      name: 'no server to check against',
      url: 'https://github.com/acme/shop/pull/7',
      origin: undefined,
      expect: '#7',
    },
    {
      name: 'an Enterprise Server',
      url: 'https://ghe.example.com/acme/shop/pull/7',
      origin: 'https://ghe.example.com',
      expect: '[#7](https://ghe.example.com/acme/shop/pull/7)',
    },
    {
      name: 'markup in the query',
      url: 'https://github.com/acme/shop/pull/7?x=<b>*_`',
      origin: GH,
      expect: '[#7](https://github.com/acme/shop/pull/7?x=%3Cb%3E%2A%5F%60)',
    },
  ])('$name', ({ url, origin, expect: want }) => {
    expect(mdLink('#7', url, origin)).toBe(want);
  });
});
