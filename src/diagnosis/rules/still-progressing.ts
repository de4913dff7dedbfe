/** Rule: content being removed normally: progress, not a leak. Pure. */
import { formatSeconds } from '../../shared/duration.js';
import { remainingPods } from '../finalizers.js';
import { objectLabel, secondsBetween } from '../refs.js';
import { resourceName } from '../../kube/paths.js';
import { shellCommand } from '../shell.js';
import type { Evidence, Finding, Leftover, ParsedConditions } from '../../model/findings.js';
import type { PodState, Snapshot } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'still-progressing';

// Mirrors pods-not-terminating: longer grace periods are reported there.
const LONG_GRACE_SECONDS = 300;
// The controller rechecks after E/2+1 s and retries errors with a backoff capped at 60 s: a pass is due within this.
const NEXT_PASS_SECONDS = 30;
const FIRST_PASS_SECONDS = 60;
const MAX_EVIDENCE = 10;

/** Content that is being removed normally (no finalizers, pods inside their grace period): progress, not a leak. */
export function stillProgressing(s: Snapshot, parsed: ParsedConditions): Finding[] {
  const left = (p: PodState): number => -(secondsBetween(p.deletionTimestamp, s.takenAt) ?? 0);
  const all = remainingPods(s);
  const pods = all.filter(
    (p) =>
      !p.deletionTimestamp || (left(p) >= 0 && (p.terminationGracePeriodSeconds ?? 0) < LONG_GRACE_SECONDS),
  );
  const others = s.leftovers.filter((l) => l.meta.finalizers.length === 0 && !isPod(l.resource));
  if (pods.length + others.length === 0) return firstPass(s);
  const estimate = Math.max(0, ...pods.map(left)) + NEXT_PASS_SECONDS;
  const held = all.length - pods.length;
  let state = `estimate ~${formatSeconds(estimate)}`;
  // Pods go first: while some cannot terminate, the rest waits however healthy it is.
  if (held > 0)
    state = `but they wait behind ${held} pod(s) that are not terminating (see pods-not-terminating)`;
  if (parsed.contentFailure) state += ' — and deletes are failing, see content-delete-refused';
  return [
    {
      id: ID,
      severity: 'notice',
      cause: 'still-progressing',
      summary: `content is still being removed normally: ${countList(pods, others)} without finalizers; ${state}`,
      evidence: progressEvidence(pods, others),
      remedy: {
        commands: [
          shellCommand(
            'kubectl',
            'wait',
            '--for=delete',
            `namespace/${s.namespace.name}`,
            `--timeout=${Math.max(60, estimate * 2)}s`,
          ),
        ],
        note: 'Nothing to force: these objects hold no finalizers and go away on the next controller passes.',
      },
      leaked: false,
    },
  ];
}

const isPod = (r: { group: string; resource: string }): boolean => r.group === '' && r.resource === 'pods';

function countList(pods: PodState[], others: Leftover[]): string {
  const counts = new Map<string, number>();
  if (pods.length) counts.set('pods', pods.length);
  // Objects of one type share their resource: name each type once, not each object.
  const byType = new Map<Leftover['resource'], number>();
  for (const l of others) byType.set(l.resource, (byType.get(l.resource) ?? 0) + 1);
  for (const [resource, n] of byType)
    counts.set(resourceName(resource), (counts.get(resourceName(resource)) ?? 0) + n);
  return [...counts].map(([r, n]) => `${n} ${r}`).join(', ');
}

function progressEvidence(pods: PodState[], others: Leftover[]): Evidence[] {
  const total = pods.length + others.length;
  // Only what is shown is built: a big namespace has thousands of objects here.
  const shown = total <= MAX_EVIDENCE ? total : MAX_EVIDENCE;
  const evidence: Evidence[] = [
    ...pods.slice(0, shown).map((p) => ({
      object: `pods/${p.name}`,
      field: 'metadata.deletionTimestamp',
      value: p.deletionTimestamp ?? '(not deleted yet)',
    })),
    ...others.slice(0, Math.max(0, shown - pods.length)).map((l) => ({
      object: objectLabel(l.resource, l.meta.name),
      field: 'metadata.finalizers',
      value: '[]',
    })),
  ];
  if (total <= MAX_EVIDENCE) return evidence;
  return [...evidence, { object: '…', field: 'more objects', value: String(total - MAX_EVIDENCE) }];
}

/** Right after the DELETE the controller has not run yet (it waits 5 s): say so rather than stay silent. */
function firstPass(s: Snapshot): Finding[] {
  const age = secondsBetween(s.namespace.deletionTimestamp, s.takenAt);
  if (s.namespace.conditions.length > 0 || age === undefined || age > FIRST_PASS_SECONDS) return [];
  return [
    {
      id: ID,
      severity: 'notice',
      cause: 'still-progressing:first-pass',
      summary: `namespace ${s.namespace.name} was deleted ${formatSeconds(age)} ago; the namespace controller has not finished its first pass`,
      evidence: [
        {
          object: `namespace/${s.namespace.name}`,
          field: 'metadata.deletionTimestamp',
          value: s.namespace.deletionTimestamp ?? '',
        },
      ],
      remedy: {
        commands: [],
        note: 'The controller starts about 5 s after the DELETE; check again shortly.',
      },
      leaked: false,
    },
  ];
}
