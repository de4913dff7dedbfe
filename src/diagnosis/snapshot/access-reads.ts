/**
 * Questions to the API server's authorizer (SubjectAccessReview), for the plans of one diagnosis: per ServiceAccount
 * `update`, then `patch` when refused; for one allowed, whether it may update every resource (then its yes does not
 * single the type out). Answers are shared by the run's snapshots while fresh; the first question refused (a 403 on
 * create) ends the asking: the server cannot be asked at all.
 */
import type { AccessAnswer, AccessQuestion } from '../../kube/port.js';
import { serviceAccountIdentity } from '../actors/access.js';
import { accessPlans, type AccessPlan } from '../actors/access-plan.js';
import type { AccessAnswerState, AccessSight, Snapshot } from '../types.js';
import { READ_AREA } from './read-paths.js';
import type { Reads } from './reader.js';

type Account = AccessPlan['accounts'][number];

/** One question, asked once per run while fresh: the answer, or the error that kept it from being asked (recorded). */
function ask(reads: Reads, q: AccessQuestion): Promise<AccessAnswer | { error: string }> {
  const resource = `${q.resource}${q.subresource ? `/${q.subresource}` : ''}`;
  const key = `access|${q.user}|${q.verb}|${q.group}|${resource}|${q.namespace ?? ''}`;
  const what = `${READ_AREA.access} ${q.verb} ${resource}${q.group ? `.${q.group}` : ''} for ${q.user}`;
  return reads.shared(key, async (r) => {
    const before = r.errors.length;
    const answer = await r.call(what, (k) => k.reviewAccess!(q));
    return answer ?? { error: r.errors[before]?.error ?? 'no answer' };
  });
}

/** What the authorizer says about one account: the first verb allowed, its reason, and whether it may do everything. */
async function answerFor(reads: Reads, plan: AccessPlan, sa: Account): Promise<AccessAnswerState> {
  const who = serviceAccountIdentity(sa);
  // `namespaces/finalize` is the subresource `finalize` of `namespaces`.
  const [resource = '', subresource] = plan.resource.split('/');
  const question = (verb: string, all = false): AccessQuestion => ({
    ...who,
    verb,
    group: all ? '*' : plan.group,
    resource: all ? '*' : resource,
    ...(subresource && !all ? { subresource } : {}),
    namespace: plan.namespace,
  });
  for (const verb of ['update', 'patch'] as const) {
    const a = await ask(reads, question(verb));
    if ('error' in a) return { serviceAccount: sa, error: a.error };
    if (!a.allowed) continue;
    const all = await ask(reads, question('update', true));
    return {
      serviceAccount: sa,
      verb,
      ...(a.reason ? { reason: a.reason } : {}),
      ...('allowed' in all && all.allowed ? { everything: true } : {}),
    };
  }
  return { serviceAccount: sa };
}

/** The sight of one plan: every account asked, or why none could be. */
async function sightFor(reads: Reads, plan: AccessPlan): Promise<AccessSight> {
  const base = {
    group: plan.group,
    resource: plan.resource,
    namespace: plan.namespace,
    notAsked: plan.notAsked,
  };
  if (!reads.canReviewAccess())
    return { ...base, answers: [], error: 'this reader cannot ask the API server' };
  const [first, ...rest] = plan.accounts;
  if (!first) return { ...base, answers: [] };
  const head = await answerFor(reads, plan, first);
  if (head.error) return { ...base, answers: [], error: head.error };
  const others = await reads.map(rest, (sa) => answerFor(reads, plan, sa));
  return { ...base, answers: [head, ...others] };
}

/**
 * The API server asked who may update the types held by custom finalizers, where the RBAC read showed no live grant;
 * nothing is asked when the workloads could not be listed (no ServiceAccount to ask about).
 */
export function askServer(
  reads: Reads,
  s: Pick<Snapshot, 'takenAt' | 'namespace' | 'leftovers' | 'workloads' | 'rbac' | 'leases'>,
): Promise<AccessSight[]> {
  if (reads.errors.some((e) => e.what.startsWith(READ_AREA.workloads))) return Promise.resolve([]);
  const plans = accessPlans({ ...s, readErrors: reads.errors });
  return reads.map(plans, (p) => sightFor(reads, p));
}
