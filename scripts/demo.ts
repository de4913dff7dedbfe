/** `npm run demo`: run the bundled action against the embedded fake cluster; one namespace hangs. Plain text out. */
import { FakeCluster, GVR, addKialiCR, addKialiCRD } from '../test/fake-apiserver/index.js';
import { renderText } from '../src/report/text.js';
import { runBundle } from '../test/helpers/harness.js';

const cluster = new FakeCluster({
  controller: { queueDelayMs: 500, finalizerRecheckMs: 1_000, errorBackoffMaxMs: 2_000 },
});
addKialiCRD(cluster);
cluster.addNode('node-1', true);
for (const name of ['preview-web', 'preview-api', 'preview-mesh']) {
  cluster.addNamespace(name, { labels: { 'preview.example.com/pr': '123' } });
  cluster.addObject(GVR.configmaps, { namespace: name, name: 'settings', data: { env: 'preview' } });
}
cluster.addPod('preview-api', 'api-0', { nodeName: 'node-1', graceSeconds: 1 });
addKialiCR(cluster, 'preview-mesh');

const started = Date.now();
const { kubeconfig } = await cluster.start();
const server = /server: (\S+)/.exec(kubeconfig)?.[1];
console.log(
  `Fake cluster at ${server}; running node dist/index.js with selector preview.example.com/pr=123, target-label preview.example.com/pr, timeout 12s\n`,
);
const run = await runBundle({
  selector: 'preview.example.com/pr=123',
  'target-label': 'preview.example.com/pr',
  kubeconfig,
  timeout: '12s',
});
await cluster.stop();

console.log('--- step log ---');
console.log(run.stdout.trim());
console.log('\n--- outputs ---');
for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}=${value}`);
// What the job summary says, as the command line prints it: plain text sized to this terminal, not raw markdown.
const tty = process.stdout.isTTY === true;
const color = tty && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
console.log('\n--- the result ---');
if (run.report) process.stdout.write(renderText(run.report, { width: process.stdout.columns || 80, color }));
console.log(`\nThe job summary GitHub would show (markdown) is in ${run.summaryPath}.`);
console.log(`Demo took ${((Date.now() - started) / 1000).toFixed(1)} s; the step exited with ${run.code}.`);
