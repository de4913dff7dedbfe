/** Rule: entries besides `kubernetes` in the namespace's `spec.finalizers`. Pure. */
import { releaseVerdict } from '../actors/index.js';
import { FORCE_FINALIZE_NAMESPACE_POLICY, finalizeNamespaceCommand } from '../remedy.js';
import type { Finding } from '../../model/findings.js';
import type { Snapshot } from '../types.js';
import type { RuleId } from './ids.js';
import { verdictParts } from './owner-verdict.js';

const ID: RuleId = 'spec-finalizers';

/** Entries other than `kubernetes` in `spec.finalizers`: another namespace lifecycle controller must finish first. */
export function specFinalizers(s: Snapshot): Finding[] {
  const ns = s.namespace;
  return [...new Set(ns.specFinalizers)]
    .filter((f) => f !== 'kubernetes')
    .sort()
    .map((f): Finding => {
      const v = releaseVerdict(s, f, { types: [{ group: '', resource: 'namespaces/finalize' }], uids: [] });
      const parts = verdictParts(v, f);
      const finalize = finalizeNamespaceCommand(ns.name, [f]);
      const remedy: Finding['remedy'] =
        parts.removal === 'fix'
          ? { commands: [...parts.inspect, finalize] }
          : { commands: parts.inspect, lastResort: { commands: [finalize], risk: parts.risk } };
      return {
        id: ID,
        severity: parts.severity,
        cause: `spec-finalizer:${f}|${v.kind}`,
        summary: `namespace ${ns.name} spec.finalizers holds ${f}: ${parts.phrase}`,
        evidence: [
          {
            object: `namespace/${ns.name}`,
            field: 'spec.finalizers',
            value: JSON.stringify(ns.specFinalizers),
          },
          ...parts.evidence,
        ],
        owner: parts.owner,
        confidence: parts.confidence,
        verdict: parts.verdict,
        basis: parts.basis,
        actors: parts.actors,
        remedy: {
          ...remedy,
          policy: FORCE_FINALIZE_NAMESPACE_POLICY,
          note: 'spec.finalizers can only be changed through the /finalize subresource (a PUT of the whole namespace).',
        },
        leaked: parts.leaked,
        targets: [{ kind: 'namespace-finalize', reason: `spec.finalizers holds ${f}` }],
      };
    });
}
