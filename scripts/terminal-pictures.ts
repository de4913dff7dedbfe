/**
 * `npm run screenshot:terminal`: run the bundled CLI (`npm run build` first) in a detached tmux session 120 columns
 * wide against the fake cluster, capture the pane with its colours, and write docs/terminal/cli.png (rendered by
 * headless Chromium) and cli.txt (the same screen as plain text).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasTmux, inTmux, stuckCluster } from '../test/helpers/terminal.js';
import { ansiToHtml } from './ansi-html.js';

const OUT = 'docs/terminal';
const WIDTH = 120;
const FLAGS = '-n pr-7,ks-old,pr-9 --target-label preview.example.com/pr --timeout 3s';
const SHOWN = `namespace-teardown ${FLAGS}`;

if (!existsSync('dist/cli/index.js'))
  throw new Error('dist/cli/index.js is missing: run `npm run build` first.');
if (!hasTmux()) throw new Error('tmux is not installed (apt-get install tmux).');

const { cluster, kubeconfigFile } = await stuckCluster({ hung: true });
let screen: string;
try {
  const args = `--kubeconfig ${kubeconfigFile} ${FLAGS}`;
  ({ screen } = await inTmux(`node dist/cli/index.js ${args}`, { width: WIDTH, escapes: true }));
} finally {
  await cluster.stop();
}

// eslint-disable-next-line no-control-regex
const plain = screen.replace(/\u001b\[[0-9;]*m/g, '');
const lines = plain.split('\n').length + 1;
const page = `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; background: #0d1117; }
pre { margin: 0; padding: 14px 16px; color: #e6edf3; font: 14px/19px 'DejaVu Sans Mono', monospace; white-space: pre; }
.prompt { color: #3fb950; }
</style></head><body><pre><span class="prompt">$ </span>${SHOWN}
${ansiToHtml(screen)}</pre></body></html>`;

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'cli.txt'), `$ ${SHOWN}\n${plain}\n`);
const dir = mkdtempSync(join(tmpdir(), 'nt-term-shot-'));
try {
  writeFileSync(join(dir, 'screen.html'), page);
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars'];
  flags.push('--disable-background-networking', '--disable-component-update', '--disable-sync');
  flags.push(`--user-data-dir=${join(dir, 'profile')}`, '--force-device-scale-factor=1');
  // 120 columns of 14 px DejaVu Sans Mono (8.43 px each) and the padding.
  const size = `--window-size=${Math.ceil(WIDTH * 8.43 + 40)},${lines * 19 + 28}`;
  execFileSync(
    'chromium',
    [...flags, `--screenshot=${join(OUT, 'cli.png')}`, size, `file://${dir}/screen.html`],
    {
      stdio: 'ignore',
    },
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${OUT}/cli.png: ${lines} lines of ${WIDTH} columns; ${OUT}/cli.txt beside it`);
process.exit(0);
