import { readRunContext } from '../../src/entry/context.js';

describe("the run's GitHub server: read from the runner, never assumed outside Actions", () => {
  test.each([
    { name: 'in Actions on github.com', env: { GITHUB_ACTIONS: 'true' }, expect: 'https://github.com' },
    {
      name: 'in Actions on GitHub Enterprise Server',
      env: { GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: 'https://ghe.example.com/' },
      expect: 'https://ghe.example.com',
    },
    { name: 'at a prompt: none', env: {}, expect: undefined },
    { name: 'at a prompt, GITHUB_ACTIONS not "true": none', env: { GITHUB_ACTIONS: '1' }, expect: undefined },
    {
      name: 'at a prompt with GITHUB_SERVER_URL set by the user: that one',
      env: { GITHUB_SERVER_URL: 'https://ghe.example.com' },
      expect: 'https://ghe.example.com',
    },
  ])('$name', ({ env, expect: want }) => {
    const context = readRunContext(env);
    expect(context.serverUrl).toBe(want);
    // Nothing else about GitHub is made up either: every field comes from a variable that was set.
    if (!('GITHUB_ACTIONS' in env && env.GITHUB_ACTIONS === 'true'))
      expect(JSON.parse(JSON.stringify(context))).toEqual(want ? { serverUrl: want } : {});
  });
});
