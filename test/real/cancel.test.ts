import type { ChildProcess } from 'node:child_process';
import { runBundle } from '../helpers/harness.js';
import {
  admin,
  apply,
  clearFinalizers,
  createCRD,
  createNamespace,
  get,
  namespace,
  sleep,
  uniqueName,
} from './kit.js';

const GADGETS = '/apis/cancel.example.com/v1/namespaces';

describe('cancellation on the real server', () => {
  beforeAll(() => createCRD('cancel.example.com', 'Gadget', 'gadgets'));

  test('SIGINT while one namespace is held: the state so far is published, marked cancelled, nothing forced', async () => {
    const label = uniqueName('cancel');
    const clean = uniqueName('clean');
    const held = uniqueName('held');
    await createNamespace(clean, { preview: label });
    await createNamespace(held, { preview: label });
    await apply({
      apiVersion: 'cancel.example.com/v1',
      kind: 'Gadget',
      metadata: { namespace: held, name: 'g1', finalizers: ['cancel.example.com/cleanup'] },
    });

    let sentAt = 0;
    // Cancel the way the runner does, once the clean namespace is gone and the held one is Terminating.
    const onStart = (child: ChildProcess): void => {
      void (async () => {
        for (let i = 0; i < 200 && child.exitCode === null; i++) {
          const h = await namespace(held);
          if (h?.metadata?.deletionTimestamp && (await namespace(clean)) === undefined) {
            await sleep(1_500); // let the run's watch see the clean one go
            sentAt = Date.now();
            child.kill('SIGINT');
            return;
          }
          await sleep(250);
        }
      })();
    };
    const run = await runBundle(
      { kubeconfig: admin().kubeconfig, selector: `preview=${label}`, timeout: '5m', force: 'on' },
      {},
      { timeoutMs: 110_000, onStart },
    );

    expect(sentAt).toBeGreaterThan(0);
    expect(Date.now() - sentAt).toBeLessThan(7_500);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain('::warning::SIGINT received: stopping');
    expect(run.summary).toContain('Namespace teardown (cancelled)');
    expect(run.outputs.result).toBe('error');
    expect(JSON.parse(run.outputs.deleted!)).toEqual([clean]);
    expect(JSON.parse(run.outputs.stuck!)).toEqual([held]);
    expect(run.report?.cancelled).toBe(true);
    expect(run.stdout).toContain('::error::Namespace teardown failed: the run was cancelled');

    // Nothing was forced: the held namespace and its custom resource are as the controller left them.
    expect((await namespace(held)).status.phase).toBe('Terminating');
    expect((await get(`${GADGETS}/${held}/gadgets/g1`)).metadata.finalizers).toEqual([
      'cancel.example.com/cleanup',
    ]);
    await clearFinalizers(`${GADGETS}/${held}/gadgets/g1`);
  });
});
