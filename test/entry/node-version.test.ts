import { MIN_NODE_MAJOR, tooOldNode } from '../../src/entry/node-version.js';

describe('the Node.js the command line runs on', () => {
  test.each(['v24.0.0', 'v24.21.0', 'v25.1.0', 'v30.0.0'])('%s will do', (v) => {
    expect(tooOldNode(v)).toBeUndefined();
  });

  test.each(['v20.20.2', 'v22.15.0', 'v23.11.1', 'v18.0.0', 'garbage'])(
    '%s is refused, named, with what to run',
    (v) => {
      const said = tooOldNode(v)!;
      expect(said).toContain(`needs Node.js ${MIN_NODE_MAJOR} or newer; this is Node.js ${v}`);
      expect(said).toContain(`Run it with Node.js ${MIN_NODE_MAJOR} or newer.`);
    },
  );
});

describe('what to run instead', () => {
  test('the same command with Node 24 from npx, nothing installed, arguments quoted as typed', () => {
    const said = tooOldNode('v20.20.2', '/usr/lib/node_modules/namespace-teardown/dist/cli/index.js', [
      '--selector',
      'team in (web)',
      '-o',
      'json',
    ])!;
    expect(said.split('\n')).toEqual([
      'namespace-teardown needs Node.js 24 or newer; this is Node.js v20.20.2. Run it with Node.js 24 or newer, e.g. without installing it:',
      "  npx -y node@24 /usr/lib/node_modules/namespace-teardown/dist/cli/index.js --selector 'team in (web)' -o json",
    ]);
  });
});
