import type { Finding, Leftover } from '../../src/model/findings.js';
import type { ForceStep, Decision, Plan, ForcePolicy } from '../../src/model/force.js';
import { decide } from '../../src/force/policy.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import {
  DISCOVERY_FAILED,
  MINUTE,
  T0,
  deadApiServiceFinding,
  kialiFinding,
  kubesphereFinding,
  lostPodFinding,
  policy,
  pvcFinding,
  suspectWebhookFinding,
  terminating,
} from './fixtures.js';

const NOW = T0 + 15 * MINUTE;
const CONTENT_REMAINING = {
  type: 'NamespaceContentRemaining',
  status: 'True',
  reason: 'SomeResourcesRemain',
  message: 'Some resources are remaining: kialis.kiali.io has 1 resource instances',
};
const KUBESPHERE = 'finalizers.kubesphere.io/namespaces';

function stepLine(s: ForceStep): string {
  if (s.kind === 'pod-delete') return `pod-delete ${s.object} uid=${s.uid} node=${s.node}`;
  const by = (r: ForceStep['remove'][number]): string =>
    r.allowedBy.input === 'force-finalizers' ? r.allowedBy.pattern : r.allowedBy.input;
  return `${s.kind} ${s.object} -[${s.remove.map((r) => `${r.finalizer}<-${by(r)}`).join(',')}] keep=[${s.keep.join(',')}]`;
}

const refusalLine = (r: Plan['refusals'][number]): string =>
  `${r.object}${r.finalizer ? ` ${r.finalizer}` : ''}: ${r.reason} | remedy: ${r.remedy}`;

interface Row {
  name: string;
  given: {
    policy?: Partial<ForcePolicy>;
    ns?: Partial<NamespaceState>;
    findings?: Finding[];
    now?: number;
    protected?: string[];
    leftovers?: Leftover[];
  };
  expect: {
    decision: Decision;
    steps?: string[];
    /** One substring per refusal, in order. */
    refusals?: string[];
    /** Substrings that must each appear in some note. */
    notes?: string[];
    /** Substrings that must each appear in some removal's risk. */
    risks?: string[];
    orphans?: string[];
    waitMs?: number;
  };
}

const POD_RES = { group: '', version: 'v1', resource: 'pods', kind: 'Pod' };
const PVC_RES = {
  group: '',
  version: 'v1',
  resource: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
};
const leftover = (
  resource: Leftover['resource'],
  name: string,
  uid: string,
  over: Partial<Leftover['meta']>,
) => ({
  resource,
  meta: {
    name,
    namespace: 'preview-42',
    uid,
    resourceVersion: '7',
    finalizers: [],
    ownerReferences: [],
    labels: {},
    ...over,
  },
});
const LOST_POD_ROWS: Row[] = [
  {
    name: 'lost-nodes: a pod on a node NotReady for 15m is deleted (step 0), before any finalizer step',
    given: {
      policy: { deletePods: 'lost-nodes', finalizerPatterns: ['kiali.io/*'] },
      findings: [kialiFinding(), lostPodFinding()],
    },
    expect: {
      decision: 'force',
      steps: [
        'pod-delete pods/web-0 uid=uid-web-0 node=node-1',
        'object-finalizers kialis.kiali.io/kiali -[kiali.io/finalizer<-kiali.io/*] keep=[]',
      ],
    },
  },
  {
    name: 'lost-nodes: a node gone from the API counts at once',
    given: { policy: { deletePods: 'lost-nodes' }, findings: [lostPodFinding({ gone: true })] },
    expect: { decision: 'force', steps: ['pod-delete pods/web-0 uid=uid-web-0 node=node-1'] },
  },
  {
    name: 'lost-nodes: NotReady for 2m waits for the 5m threshold',
    given: {
      policy: { deletePods: 'lost-nodes' },
      findings: [lostPodFinding({ since: new Date(NOW - 2 * MINUTE).toISOString() })],
    },
    expect: {
      decision: 'not-yet',
      waitMs: 3 * MINUTE,
      notes: [
        'pods/web-0: its node node-1 is NotReady (Ready=Unknown) for 2m 00s; force-delete-pods deletes it once the node has been lost for 5m 00s (3m 00s left)',
      ],
    },
  },
  {
    name: 'force-delete-pods off: the lost pod is refused with the input as the remedy',
    given: { findings: [lostPodFinding()] },
    expect: {
      decision: 'nothing-allowed',
      refusals: [
        'pods/web-0: its node node-1 is NotReady (Ready=Unknown), so no kubelet will confirm it stopped; force-delete-pods is off | remedy: set force-delete-pods: lost-nodes',
      ],
    },
  },
  {
    name: 'a protected namespace: no pod is ever deleted',
    given: { policy: { deletePods: 'lost-nodes' }, findings: [lostPodFinding()], protected: ['preview-42'] },
    expect: { decision: 'protected', refusals: ['preview-42 is a protected namespace'] },
  },
  {
    name: 'a pod deleted by step 0 is no reason for /finalize',
    given: { policy: { deletePods: 'lost-nodes', finalizeNamespace: true }, findings: [lostPodFinding()] },
    expect: { decision: 'force', steps: ['pod-delete pods/web-0 uid=uid-web-0 node=node-1'] },
  },
  {
    name: 'a lost pod that stays is a reason for /finalize; the orphans list what was never marked for deletion',
    given: {
      policy: { finalizeNamespace: true, finalizerPatterns: ['kubernetes.io/pvc-protection'] },
      findings: [lostPodFinding(), pvcFinding()],
      leftovers: [
        leftover(POD_RES, 'web-0', 'uid-web-0', { deletionTimestamp: '2026-11-22T10:00:30Z' }),
        leftover(PVC_RES, 'data', 'uid-pvc', { finalizers: ['kubernetes.io/pvc-protection'] }),
        leftover(PVC_RES, 'logs', 'uid-logs', { deletionTimestamp: '2026-11-22T10:00:30Z' }),
      ],
    },
    expect: {
      decision: 'force',
      steps: [
        'object-finalizers persistentvolumeclaims/data -[kubernetes.io/pvc-protection<-kubernetes.io/pvc-protection] keep=[]',
        'namespace-finalize namespace/preview-42 -[kubernetes<-force-finalize-namespace] keep=[]',
      ],
      refusals: ['pods/web-0: its node node-1 is NotReady'],
      orphans: [
        'persistentvolumeclaims/data (never marked for deletion; keeps kubernetes.io/pvc-protection)',
        'persistentvolumeclaims/logs (being deleted)',
        'pods/web-0 (being deleted)',
      ],
    },
  },
  {
    name: 'a suspect webhook (confidence 0.5) alone never makes /finalize eligible',
    given: { policy: { finalizeNamespace: true }, findings: [suspectWebhookFinding()] },
    expect: {
      decision: 'nothing-to-force',
      notes: [
        'not a reason for /finalize on its own: webhook deny.example.com may refuse deletes (confidence 0.5) is a guess below the 0.7 confidence threshold',
      ],
    },
  },
  {
    name: 'a suspect webhook next to an observed blocker: /finalize on the observed one',
    given: {
      policy: { finalizeNamespace: true },
      ns: { conditions: [DISCOVERY_FAILED] },
      findings: [suspectWebhookFinding(), deadApiServiceFinding()],
    },
    expect: {
      decision: 'force',
      steps: ['namespace-finalize namespace/preview-42 -[kubernetes<-force-finalize-namespace] keep=[]'],
      notes: ['is a guess below the 0.7 confidence threshold'],
    },
  },
];

const rows: Row[] = [
  ...LOST_POD_ROWS,
  {
    name: 'kiali CR finalizer removed by pattern kiali.io/*',
    given: { policy: { finalizerPatterns: ['kiali.io/*'] }, findings: [kialiFinding()] },
    expect: {
      decision: 'force',
      steps: ['object-finalizers kialis.kiali.io/kiali -[kiali.io/finalizer<-kiali.io/*] keep=[]'],
    },
  },
  {
    name: 'only the matched entry of a longer list is removed; the other is refused with a remedy',
    given: {
      policy: { finalizerPatterns: ['kiali.io/*'] },
      findings: [kialiFinding(['kiali.io/finalizer', 'other.io/keep'])],
    },
    expect: {
      decision: 'force',
      steps: [
        'object-finalizers kialis.kiali.io/kiali -[kiali.io/finalizer<-kiali.io/*] keep=[other.io/keep]',
      ],
      refusals: [
        'other.io/keep: no force-finalizers pattern matches other.io/keep | remedy: fix or reinstall kiali-operator, or add "other.io/*"',
      ],
    },
  },
  {
    name: 'kubesphere namespace metadata finalizer removed by PATCH',
    given: {
      policy: { finalizerPatterns: ['finalizers.kubesphere.io/*'] },
      ns: { metadataFinalizers: [KUBESPHERE] },
      findings: [kubesphereFinding()],
    },
    expect: {
      decision: 'force',
      steps: [
        `namespace-metadata-finalizers namespace/preview-42 -[${KUBESPHERE}<-finalizers.kubesphere.io/*] keep=[]`,
      ],
    },
  },
  {
    name: 'dead APIService with force-finalize-namespace true: /finalize, listing what it orphans',
    given: {
      policy: { finalizeNamespace: true },
      ns: { conditions: [DISCOVERY_FAILED] },
      findings: [deadApiServiceFinding()],
    },
    expect: {
      decision: 'force',
      steps: ['namespace-finalize namespace/preview-42 -[kubernetes<-force-finalize-namespace] keep=[]'],
      orphans: [
        `objects of API groups that discovery cannot reach, which cannot be listed (${DISCOVERY_FAILED.message})`,
      ],
      risks: ['reappears in a namespace created later with the same name'],
    },
  },
  {
    name: 'dead APIService with force-finalize-namespace false: no step, a refusal with the remedy',
    given: { ns: { conditions: [DISCOVERY_FAILED] }, findings: [deadApiServiceFinding()] },
    expect: {
      decision: 'nothing-allowed',
      refusals: [
        'namespace/preview-42: still blocked after the allowed removals: discovery fails for metrics.k8s.io/v1beta1 (APIService v1beta1.metrics.k8s.io: ServiceNotFound); force-finalize-namespace is false | remedy: fix the blockers (see the findings), or set force-finalize-namespace: true',
      ],
    },
  },
  {
    name: 'all three in the safest order: object, namespace metadata, then /finalize',
    given: {
      policy: { finalizerPatterns: ['kiali.io/*', 'finalizers.kubesphere.io/*'], finalizeNamespace: true },
      ns: { metadataFinalizers: [KUBESPHERE], conditions: [DISCOVERY_FAILED] },
      findings: [deadApiServiceFinding(), kubesphereFinding(), kialiFinding()],
    },
    expect: {
      decision: 'force',
      steps: [
        'object-finalizers kialis.kiali.io/kiali -[kiali.io/finalizer<-kiali.io/*] keep=[]',
        `namespace-metadata-finalizers namespace/preview-42 -[${KUBESPHERE}<-finalizers.kubesphere.io/*] keep=[]`,
        'namespace-finalize namespace/preview-42 -[kubernetes<-force-finalize-namespace] keep=[]',
      ],
    },
  },
  {
    name: 'refused object finalizers make /finalize the last resort, and it lists the objects it orphans',
    given: {
      policy: { finalizeNamespace: true },
      ns: { conditions: [CONTENT_REMAINING] },
      findings: [kialiFinding()],
    },
    expect: {
      decision: 'force',
      steps: ['namespace-finalize namespace/preview-42 -[kubernetes<-force-finalize-namespace] keep=[]'],
      refusals: ['kialis.kiali.io/kiali kiali.io/finalizer: no force-finalizers pattern matches'],
      orphans: [
        'kialis.kiali.io/kiali (keeps kiali.io/finalizer)',
        `content the namespace controller still counts (${CONTENT_REMAINING.message})`,
      ],
      notes: [
        'force-finalizers is empty, so no finalizer may be removed; blocking finalizers: kiali.io/finalizer',
      ],
    },
  },
  {
    name: 'dry-run plans the same steps (the executor writes nothing)',
    given: { policy: { mode: 'dry-run', finalizerPatterns: ['kiali.io/*'] }, findings: [kialiFinding()] },
    expect: {
      decision: 'force',
      steps: ['object-finalizers kialis.kiali.io/kiali -[kiali.io/finalizer<-kiali.io/*] keep=[]'],
    },
  },
  {
    name: 'a pattern matching nothing: empty plan with a "nothing matched" note',
    given: { policy: { finalizerPatterns: ['example.com/*'] }, findings: [kialiFinding()] },
    expect: {
      decision: 'nothing-allowed',
      refusals: ['kiali.io/finalizer: no force-finalizers pattern matches'],
      notes: [
        'nothing matched: no force-finalizers pattern (example.com/*) allows removing a blocking finalizer; blocking finalizers: kiali.io/finalizer',
      ],
    },
  },
  {
    name: 'a pattern that allowed nothing is named when others did',
    given: { policy: { finalizerPatterns: ['kiali.io/*', 'kaili.io/*'] }, findings: [kialiFinding()] },
    expect: {
      decision: 'force',
      steps: ['object-finalizers kialis.kiali.io/kiali -[kiali.io/finalizer<-kiali.io/*] keep=[]'],
      notes: ['force-finalizers pattern "kaili.io/*" matched no finalizer it may remove'],
    },
  },
  {
    name: 'waiting pvc-protection is not removed by "*"',
    given: { policy: { finalizerPatterns: ['*'] }, findings: [pvcFinding()] },
    expect: {
      decision: 'nothing-allowed',
      refusals: [
        'persistentvolumeclaims/data kubernetes.io/pvc-protection: kubernetes.io/pvc-protection is still legitimately waiting; pattern "*" is a wildcard and does not name it exactly | remedy: wait for it to finish, or name "kubernetes.io/pvc-protection" exactly',
      ],
      notes: ['nothing matched'],
    },
  },
  {
    name: 'waiting pvc-protection is removed when named exactly, and the plan records the risk',
    given: {
      policy: { finalizerPatterns: ['kiali.io/*', 'kubernetes.io/pvc-protection'] },
      findings: [pvcFinding()],
    },
    expect: {
      decision: 'force',
      steps: [
        'object-finalizers persistentvolumeclaims/data -[kubernetes.io/pvc-protection<-kubernetes.io/pvc-protection] keep=[]',
      ],
      risks: ['still legitimately waiting', 'the claim is deleted while a pod may still use it'],
    },
  },
  {
    name: 'load-balancer-cleanup guards infrastructure: a wildcard never removes it, even when not waiting',
    given: {
      policy: { finalizerPatterns: ['service.kubernetes.io/*'] },
      findings: [
        {
          ...kialiFinding(),
          id: 'service-finalizer',
          targets: [
            {
              kind: 'object-finalizers',
              resource: { group: '', version: 'v1', resource: 'services', kind: 'Service' },
              name: 'web',
              uid: 'uid-svc',
              resourceVersion: '7',
              deleting: true,
              finalizers: ['service.kubernetes.io/load-balancer-cleanup'],
              waiting: [],
            },
          ],
        },
      ],
    },
    expect: {
      decision: 'nothing-allowed',
      refusals: [
        'guards real infrastructure; pattern "service.kubernetes.io/*" is a wildcard and does not name it exactly | remedy: fix or reinstall kiali-operator, or name "service.kubernetes.io/load-balancer-cleanup" exactly in force-finalizers to remove it knowingly (risk: the cloud load balancer is not deleted: it is leaked',
      ],
    },
  },
  {
    name: '/finalize is refused when it would strand a claim still in use',
    given: {
      policy: { finalizeNamespace: true },
      ns: { conditions: [DISCOVERY_FAILED] },
      findings: [pvcFinding(), deadApiServiceFinding()],
    },
    expect: {
      decision: 'nothing-allowed',
      refusals: [
        'no pattern names it exactly',
        'namespace/preview-42: /finalize would strand persistentvolumeclaims/data (kubernetes.io/pvc-protection) in storage',
      ],
    },
  },
  {
    name: 'a running owner is recorded as a risk',
    given: {
      policy: { finalizerPatterns: ['kiali.io/*'] },
      findings: [{ ...kialiFinding(), owner: { controller: 'kiali-operator', present: true } }],
    },
    expect: {
      decision: 'force',
      steps: ['object-finalizers kialis.kiali.io/kiali -[kiali.io/finalizer<-kiali.io/*] keep=[]'],
      risks: ['its controller kiali-operator is running and may still be cleaning up'],
    },
  },
  {
    name: 'spec.finalizers already empty: /finalize cannot help, said in a note',
    given: {
      policy: { finalizeNamespace: true },
      ns: { specFinalizers: [] },
      findings: [deadApiServiceFinding()],
    },
    expect: {
      decision: 'nothing-to-force',
      notes: ['spec.finalizers is already empty, so /finalize cannot help'],
    },
  },
  {
    name: 'force-after not reached: nothing, and how long is left',
    given: {
      policy: { finalizerPatterns: ['kiali.io/*'] },
      findings: [kialiFinding()],
      now: T0 + 4 * MINUTE,
    },
    expect: {
      decision: 'not-yet',
      waitMs: 6 * MINUTE,
      notes: ['terminating for 4m 00s; force-after is 10m 00s, 6m 00s left'],
    },
  },
  {
    name: 'protected namespace refused whatever else is set',
    given: {
      policy: { finalizerPatterns: ['*'], finalizeNamespace: true },
      findings: [kialiFinding(), deadApiServiceFinding()],
      protected: ['preview-42'],
    },
    expect: {
      decision: 'protected',
      refusals: ['preview-42 is a protected namespace; protected namespaces are never forced'],
    },
  },
  {
    name: 'mode off: nothing',
    given: {
      policy: { mode: 'off', finalizerPatterns: ['*'], finalizeNamespace: true },
      findings: [kialiFinding()],
    },
    expect: { decision: 'off', notes: ['force is off'] },
  },
  {
    name: 'not terminating: nothing',
    given: {
      policy: { finalizerPatterns: ['*'] },
      ns: { deletionTimestamp: undefined, phase: 'Active' },
      findings: [kialiFinding()],
    },
    expect: { decision: 'not-terminating', notes: ['is not terminating'] },
  },
  {
    name: 'no findings with targets: nothing to force',
    given: { policy: { finalizerPatterns: ['*'], finalizeNamespace: true } },
    expect: {
      decision: 'nothing-to-force',
      notes: ['nothing blocks the namespace that forcing could change'],
    },
  },
];

describe('decide', () => {
  test.each(rows)('$name', ({ given, expect: want }) => {
    const isProtected = (name: string): boolean => (given.protected ?? []).includes(name);
    const plan = decide(
      policy(given.policy),
      terminating(given.ns),
      given.findings ?? [],
      given.now ?? NOW,
      isProtected,
      given.leftovers,
    );
    expect(plan.decision).toBe(want.decision);
    expect(plan.steps.map(stepLine)).toEqual(want.steps ?? []);
    const refusals = plan.refusals.map(refusalLine);
    expect(refusals).toHaveLength((want.refusals ?? []).length);
    (want.refusals ?? []).forEach((text, i) => expect(refusals[i]).toContain(text));
    for (const note of want.notes ?? []) expect(plan.notes.join('\n')).toContain(note);
    const risks = plan.steps.flatMap((s) => s.remove.map((r) => r.risk ?? '')).join('\n');
    for (const risk of want.risks ?? []) expect(risks).toContain(risk);
    if (want.orphans)
      expect(plan.steps.find((s) => s.kind === 'namespace-finalize')).toMatchObject({
        orphans: want.orphans,
      });
    expect(plan.waitMs).toBe(want.waitMs);
    expect(plan.mode).toBe(policy(given.policy).mode);
  });

  test('is deterministic: the order of findings and of patterns does not change the plan', () => {
    const ns = terminating({ metadataFinalizers: [KUBESPHERE], conditions: [DISCOVERY_FAILED] });
    const findings = [
      deadApiServiceFinding(),
      kubesphereFinding(),
      kialiFinding(['z.io/x', 'kiali.io/finalizer']),
      pvcFinding(),
    ];
    const p = policy({
      finalizerPatterns: ['kiali.io/*', 'finalizers.kubesphere.io/*'],
      finalizeNamespace: true,
    });
    const a = decide(p, ns, findings, NOW, () => false);
    const b = decide(p, ns, [...findings].reverse(), NOW, () => false);
    expect(b).toEqual(a);
  });

  test('merges one object named by two findings into one step', () => {
    const twice = [
      kialiFinding(),
      { ...kialiFinding(['kiali.io/finalizer', 'other.io/x']), id: 'another-rule' },
    ];
    const plan = decide(policy({ finalizerPatterns: ['*'] }), terminating(), twice, NOW, () => false);
    expect(plan.steps.map(stepLine)).toEqual([
      'object-finalizers kialis.kiali.io/kiali -[kiali.io/finalizer<-*,other.io/x<-*] keep=[]',
    ]);
    expect(plan.steps[0]?.findings).toEqual(['another-rule', 'finalizer-owner-missing']);
  });
});
