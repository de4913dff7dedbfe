/** Rule: finalizers in the namespace's own `metadata.finalizers`, typically left by an uninstalled platform. Pure. */
import { builtInActor, releaseVerdict } from '../actors/index.js';
import { forceFinalizersPolicy, patchNamespaceFinalizersCommand } from '../remedy.js';
import type { Evidence, Finding } from '../../model/findings.js';
import type { Snapshot } from '../types.js';
import type { RuleId } from './ids.js';
import { actorRecord, verdictParts } from './owner-verdict.js';

const ID: RuleId = 'namespace-metadata-finalizers';

const GARBAGE_COLLECTOR = new Set(['orphan', 'foregroundDeletion']);

/**
 * Entries in the namespace's own `metadata.finalizers` (not `spec.finalizers`), typically left by a platform that
 * was uninstalled (e.g. `finalizers.kubesphere.io/namespaces`); removed by a PATCH of the namespace.
 */
export function namespaceMetadataFinalizers(s: Snapshot): Finding[] {
  return [...new Set(s.namespace.metadataFinalizers)].sort().map((f) => oneFinalizer(s, f));
}

function oneFinalizer(s: Snapshot, f: string): Finding {
  const ns = s.namespace;
  const evidence: Evidence[] = [
    {
      object: `namespace/${ns.name}`,
      field: 'metadata.finalizers',
      value: JSON.stringify(ns.metadataFinalizers),
    },
    { object: `namespace/${ns.name}`, field: 'spec.finalizers', value: JSON.stringify(ns.specFinalizers) },
  ];
  const patch = patchNamespaceFinalizersCommand(ns, [f]);
  const policy = forceFinalizersPolicy([f]);
  const note =
    'metadata.finalizers are removed with a PATCH of the namespace, not through /finalize (which handles spec.finalizers).';
  const targets: Finding['targets'] = [{ kind: 'namespace-metadata-finalizers', finalizers: [f] }];
  if (GARBAGE_COLLECTOR.has(f)) {
    const gc = builtInActor(s, f, 'garbage collector (kube-controller-manager)');
    const present = gc.liveness.state === 'unknown' ? ('unknown' as const) : gc.liveness.state === 'live';
    return {
      id: ID,
      severity: 'notice',
      cause: `namespace-metadata-finalizer:${f}|gc`,
      summary: `namespace ${ns.name} metadata.finalizers holds ${f}: the garbage collector removes it once blocking dependents are gone`,
      evidence,
      owner: {
        controller: 'garbage collector (kube-controller-manager)',
        present,
        ...(gc.liveness.evidence[0] ? { detail: gc.liveness.evidence[0] } : {}),
      },
      actors: [actorRecord(gc)],
      basis: gc.liveness.evidence.slice(0, 2),
      remedy: { commands: [patch], policy, note },
      leaked: false,
      targets,
    };
  }
  const v = releaseVerdict(s, f, { types: [{ group: '', resource: 'namespaces' }], uids: [] });
  const parts = verdictParts(v, f);
  const remedy: Finding['remedy'] =
    parts.removal === 'fix'
      ? { commands: [...parts.inspect, patch], policy, note }
      : { commands: parts.inspect, lastResort: { commands: [patch], risk: parts.risk }, policy, note };
  return {
    id: ID,
    severity: parts.severity,
    cause: `namespace-metadata-finalizer:${f}|${v.kind}`,
    summary: `namespace ${ns.name} metadata.finalizers holds ${f}: ${parts.phrase}`,
    evidence: [...evidence, ...parts.evidence],
    owner: parts.owner,
    confidence: parts.confidence,
    verdict: parts.verdict,
    basis: parts.basis,
    actors: parts.actors,
    remedy,
    leaked: parts.leaked,
    targets,
  };
}
