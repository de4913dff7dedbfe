/**
 * deploy/rbac.yaml on the real server, proven mode by mode: one ServiceAccount per mode bound as the README says, the
 * `kubectl auth can-i` matrix of src/permissions/matrix.ts (allowed and denied), then each mode's run made as that
 * identity alone: it does its job, and nothing it needs is refused.
 */
import { EXAMPLE_CRD, BINDINGS, CHECKS, canI, canIArgs } from '../../src/permissions/matrix.js';
import type { Mode } from '../../src/permissions/rule.js';
import { mapPool } from '../../src/shared/map-pool.js';
import { applyDeploy, canIAs, identities, removeIdentities, type Identity } from './rbac-identities.js';
import { GROUP as GIZMOS } from './gizmo.js';
import { createCRD, kubectl } from './kit.js';
import { customResourcesMode, deleteMode, diagnoseMode, forceMode } from './rbac-runs.js';
import { finalizeMode, gitopsMode } from './rbac-last-runs.js';

const FLUX = { group: 'kustomize.toolkit.fluxcd.io', kind: 'Kustomization', plural: 'kustomizations' };

let ids: Record<Mode, Identity>;
let printed = '';

beforeAll(async () => {
  // The types the roles are printed for: they must be served before `namespace-teardown rbac` reads the cluster.
  await createCRD(EXAMPLE_CRD.group, EXAMPLE_CRD.kind, EXAMPLE_CRD.resource);
  await createCRD(GIZMOS, 'Gizmo', 'gizmos');
  await createCRD(FLUX.group, FLUX.kind, FLUX.plural);
  printed = await applyDeploy();
  ids = await identities();
}, 240_000);

afterAll(async () => {
  if (ids) await removeIdentities(ids);
  await kubectl(['delete', 'crd', `${FLUX.plural}.${FLUX.group}`, '--ignore-not-found']);
});

describe('the roles of deploy/rbac.yaml on the real server', () => {
  test('`namespace-teardown rbac` printed a rule for each type the cluster’s CRDs serve, where a mode needs it', () => {
    for (const type of [`${EXAMPLE_CRD.resource}.${EXAMPLE_CRD.group}`, `gizmos.${GIZMOS}`])
      expect(printed).toContain(`# CRDs ${type}.`);
    expect(printed).not.toMatch(/\bsecrets\b|'\*'|\[\*\]/);
  });

  test('kubectl auth can-i answers as the matrix says, for every mode, allowed and denied', async () => {
    const asked = BINDINGS.flatMap((b) => CHECKS.map((c) => ({ mode: b.mode, c })));
    const line = (mode: Mode, c: (typeof CHECKS)[number], answer: string): string =>
      `${canI(c)} --as=<${mode}>: ${answer}`;
    const answers = await mapPool(asked, 6, async ({ mode, c }) =>
      line(mode, c, await canIAs(canIArgs(c), ids[mode].user)),
    );
    const expected = asked.map(({ mode, c }) => line(mode, c, c.allowed.includes(mode) ? 'yes' : 'no'));
    expect(answers).toEqual(expected);
  }, 300_000);
});

describe('each mode end to end, as its identity alone', () => {
  test('delete: teardown-order namespace deletes and sees it gone; only diagnosis reads are refused', () =>
    deleteMode(ids.delete));
  test('diagnose: scope all-terminating names both finalizers, reads no Secret, writes nothing', () =>
    diagnoseMode(ids.diagnose));
  test('custom resources first: the operator cleans up while it runs, then the namespace goes', () =>
    customResourcesMode(ids['custom-resources']));
  test('force: finalizers of a custom resource and of the namespace removed, a lost node’s pod deleted', () =>
    forceMode(ids.force));
  test('force: /finalize as the last resort, past a webhook that refuses the delete', () =>
    finalizeMode(ids.force));
  test('GitOps owners first: suspended, and deleted, in flux-system, with the role bound only there', () =>
    gitopsMode(ids['gitops-owners']));
});
