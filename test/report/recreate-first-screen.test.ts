/**
 * A namespace an owner may apply again is said on the first screen: gone, but an owner whose controller could not be
 * told running applies it (Argo CD's default install: its controller holds a `*` ClusterRole, which ties it to
 * nothing). Never only inside a collapsed section under "gone".
 */
import { willRecreate } from '../../src/diagnosis/index.js';
import { toApplication } from '../../src/diagnosis/snapshot/actor-raw.js';
import type { Finding } from '../../src/model/findings.js';
import { renderSummary } from '../../src/report/markdown.js';
import { TAKEN_AT } from '../diagnosis/fixtures.js';
import { runReport, targetReport } from '../helpers/reports.js';

/** An automated Application creating preview-7, with no status.reconciledAt and no controller tied to it by RBAC. */
function unknownOwner(): Finding[] {
  const app = toApplication({
    metadata: { name: 'preview-7', namespace: 'argocd' },
    spec: {
      destination: { namespace: 'preview-7' },
      syncPolicy: { automated: { prune: true }, syncOptions: ['CreateNamespace=true'] },
    },
    status: { resources: [{ kind: 'Deployment', namespace: 'preview-7', name: 'web' }] },
  });
  return willRecreate({
    takenAt: TAKEN_AT,
    namespace: { name: 'preview-7', labels: {} },
    gitops: [app],
    workloads: [],
    rbac: { roles: [], bindings: [] },
    leases: [],
    readErrors: [],
  });
}

/** What a reader sees before anything folded: the summary up to its first collapsed section. */
const firstScreen = (markdown: string): string => markdown.split('<details')[0]!;

describe('an owner that may recreate a gone namespace', () => {
  test('the finding is `unknown`, and the first screen says the namespace may come back, with the command', () => {
    const findings = unknownOwner();
    expect(findings.map((f) => f.verdict)).toEqual(['unknown']);
    const seen = firstScreen(
      renderSummary(runReport([targetReport('preview-7', { outcome: 'gone', findings })])),
    );
    expect(seen).toContain(
      'namespace preview-7 may be recreated&#58; Application argocd/preview-7 applies it',
    );
    expect(seen).toContain('♻️ gone, an owner may apply it again (whether it runs is unknown)');
    expect(seen).toContain('kubectl patch applications.argoproj.io preview-7 -n argocd');
  });

  test('flipped — no owner applies it: gone, and nothing of an owner on the first screen', () => {
    const seen = firstScreen(renderSummary(runReport([targetReport('preview-7', { outcome: 'gone' })])));
    expect(seen).not.toMatch(/recreated|apply it again/);
  });
});
