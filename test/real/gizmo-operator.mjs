// A tiny operator, run by test/real/operator.test.ts as a child process against the real kube-apiserver: it watches
// one custom resource type in one namespace (client-node's Watch) and, for each object being deleted that holds its
// finalizer, does its "cleanup" (a line appended to the record file, standing in for a cloud bucket it deletes) and
// then removes its finalizer with a JSON patch guarded by the object's UID. Usage:
//   node gizmo-operator.mjs KUBECONFIG NAMESPACE GROUP VERSION PLURAL FINALIZER RECORD_FILE
import { appendFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';

const [kubeconfig, namespace, group, version, plural, finalizer, record] = process.argv.slice(2);
const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfig);
const api = kc.makeApiClient(k8s.CustomObjectsApi);
const watcher = new k8s.Watch(kc);
const busy = new Set();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function release(obj) {
  const m = obj.metadata ?? {};
  if (!m.deletionTimestamp || !(m.finalizers ?? []).includes(finalizer) || busy.has(m.uid)) return;
  busy.add(m.uid);
  // The external cleanup takes a moment, as a real one does.
  await sleep(300);
  appendFileSync(record, `deleted bucket for ${namespace}/${m.name}\n`);
  const rest = m.finalizers.filter((f) => f !== finalizer);
  try {
    await api.patchNamespacedCustomObject({
      group,
      version,
      namespace,
      plural,
      name: m.name,
      body: [
        { op: 'test', path: '/metadata/uid', value: m.uid },
        { op: 'replace', path: '/metadata/finalizers', value: rest },
      ],
    });
  } catch (error) {
    process.stderr.write(`patch of ${m.name} failed: ${error}\n`);
    busy.delete(m.uid);
  }
}

async function watchForever() {
  for (;;) {
    await new Promise((resolve) => {
      watcher
        .watch(
          `/apis/${group}/${version}/namespaces/${namespace}/${plural}`,
          {},
          (type, obj) => {
            if (type === 'ADDED' || type === 'MODIFIED') void release(obj);
          },
          () => resolve(undefined),
        )
        .then(() => process.stdout.write('watching\n'))
        .catch(() => resolve(undefined));
    });
    await sleep(500);
  }
}

void watchForever();
