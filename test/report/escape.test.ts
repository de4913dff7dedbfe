import { breakCommands } from '../../src/report/escape.js';

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
