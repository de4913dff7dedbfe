/**
 * `wait: settled` against the real namespace controller (1.20): a finalizer nothing in the cluster removes ends the
 * wait once its passes change nothing; the same finalizer with a live controller tied to it is waited for to the
 * timeout. The type is this test's own, so no other test's operator is tied to it.
 */
import { apply, clearFinalizers, createCRD, createNamespace, runAction, uniqueName } from './kit.js';
import { deployOperator } from './gizmo.js';

const GROUP = 'settles.example.com';
const sprockets = (ns: string): string => `/apis/${GROUP}/v1/namespaces/${ns}/sprockets`;

describe('wait: settled on the real server', () => {
  beforeAll(() => createCRD(GROUP, 'Sprocket', 'sprockets'));

  test.each([
    { controller: 'uninstalled', ended: 'settled' },
    { controller: 'alive', ended: 'timeout' },
  ])(
    'a sprocket finalizer, its controller $controller: the wait ends $ended',
    async ({ controller, ended }) => {
      const ns = uniqueName('settle');
      await createNamespace(ns);
      if (controller === 'alive') {
        const ops = uniqueName('ops');
        await createNamespace(ops);
        await deployOperator(ops, { group: GROUP, resource: 'sprockets' });
      }
      await apply({
        apiVersion: `${GROUP}/v1`,
        kind: 'Sprocket',
        metadata: { namespace: ns, name: 's1', finalizers: [`${GROUP}/cleanup`] },
      });
      const run = await runAction({ namespaces: ns, timeout: '45s', 'teardown-order': 'namespace' });
      try {
        expect(run.code).toBe(1);
        const [t] = run.report!.targets;
        expect(t?.outcome).toBe('stuck');
        expect(run.report!.wait).toMatchObject({ mode: 'settled', ended });
        if (ended === 'settled') {
          expect(t?.settled).toMatchObject({ verdicts: ['leaked'] });
          expect(t!.settled!.afterMs).toBeLessThan(45_000);
          expect(run.summary).toContain('The wait ended settled after');
        } else {
          expect(t?.settled).toBeUndefined();
          expect(t?.notSettled).toMatch(/live actor|alive/);
        }
      } finally {
        await clearFinalizers(`${sprockets(ns)}/s1`);
      }
    },
  );
});
