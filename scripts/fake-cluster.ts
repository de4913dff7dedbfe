/**
 * `npm run fake-cluster`: the embedded fake cluster (test/fake-apiserver), with three preview namespaces of pull
 * request 123, one of which will hang on a leaked finalizer, and a team's namespace that is no preview; prints a
 * KUBECONFIG and commands to try, and runs until Ctrl-C.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeCluster, GVR, addKialiCR, addKialiCRD } from '../test/fake-apiserver/index.js';

const LABEL = 'preview.example.com/pr';
const SELECTOR = `${LABEL}=123`;

const cluster = new FakeCluster({
  controller: { queueDelayMs: 500, finalizerRecheckMs: 1_000, errorBackoffMaxMs: 2_000 },
});
addKialiCRD(cluster);
cluster.addNode('node-1', true);
for (const name of ['preview-web', 'preview-api', 'preview-mesh']) {
  cluster.addNamespace(name, { labels: { 'preview.example.com/pr': '123', team: 'checkout' } });
  cluster.addObject(GVR.configmaps, { namespace: name, name: 'settings', data: { env: 'preview' } });
}
// Not a preview: the fence (--target-label) refuses it, whatever the command line names.
cluster.addNamespace('team-checkout', { labels: { team: 'checkout' } });
cluster.addPod('preview-api', 'api-0', { nodeName: 'node-1', graceSeconds: 1 });
// The Kiali operator was uninstalled before the preview: nothing will ever remove this finalizer.
addKialiCR(cluster, 'preview-mesh');

const { kubeconfig, url } = await cluster.start();
const dir = mkdtempSync(join(tmpdir(), 'nt-fake-cluster-'));
const file = join(dir, 'kubeconfig');
writeFileSync(file, kubeconfig, { mode: 0o600 });

console.log(`Fake cluster at ${url} (context "fake"): preview-web, preview-api and preview-mesh, labelled
${SELECTOR}; preview-mesh holds a Kiali resource whose finalizer no controller will remove.
team-checkout is a team's namespace, not a preview.

In another terminal:

  export KUBECONFIG=${file}
  npm run cli -- -l ${SELECTOR} --target-label ${LABEL} --timeout 20s
  npm run cli -- -n team-checkout --target-label ${LABEL}

then again with --force dry-run, or -o json. kubectl works against it too. Ctrl-C here stops the cluster.`);

const stop = (): void => {
  void cluster.stop().finally(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
