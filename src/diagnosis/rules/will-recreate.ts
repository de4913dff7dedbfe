/**
 * A live GitOps owner that applies the namespace again once it is gone: the deletion does not last. Found for every
 * target at the end of a run (gone ones too), from the owners this run read and their controllers' liveness. Pure.
 */
import { recreators, type GitOpsView } from '../actors/gitops.js';
import type { Actor } from '../actors/index.js';
import { shellCommand } from '../shell.js';
import type { Finding } from '../../model/findings.js';
import type { GitOpsOwner, Snapshot } from '../types.js';
import type { RuleId } from './ids.js';
import { actorRecord } from './owner-verdict.js';

const ID: RuleId = 'will-recreate';

const RESOURCES: Record<string, string> = {
  Kustomization: 'kustomizations.kustomize.toolkit.fluxcd.io',
  HelmRelease: 'helmreleases.helm.toolkit.fluxcd.io',
  Application: 'applications.argoproj.io',
  ApplicationSet: 'applicationsets.argoproj.io',
};

/**
 * The command that stops an owner from applying again: suspend it (Flux), or turn off its automated sync (Argo CD).
 * An owner that also applies elsewhere, or whose reach could not be read, would stop there too: only a look at it.
 */
function stopCommand(a: Actor): string {
  const [kind = '', where = ''] = a.name.split(' ');
  const [namespace = '', name = ''] = where.split('/');
  const resource = RESOURCES[kind] ?? kind;
  const patch = (body: string): string =>
    shellCommand('kubectl', 'patch', resource, name, '-n', namespace, '--type=merge', '-p', body);
  if (a.beyond || kind === 'ApplicationSet')
    return shellCommand('kubectl', 'get', resource, name, '-n', namespace, '-o', 'yaml');
  if (kind === 'Application') return patch('{"spec":{"syncPolicy":{"automated":null}}}');
  return patch('{"spec":{"suspend":true}}');
}

/** Why no command stops `a`: what else it applies, so stopping it would stop that too. */
function beyondNote(a: Actor, ns: string): string | undefined {
  if (!a.beyond) return undefined;
  const what = a.beyond.unread
    ? `${a.beyond.unread}, so what else it applies could not be read`
    : `also applies ${a.beyond.namespaces.join(', ')}`;
  return `${a.name} ${what}: suspending or deleting it would stop or remove what it applies there too; remove ${ns} from its source (the generator, the Git path) instead.`;
}

const SOURCE = 'The owner goes first: remove the preview from its source (the generator, the Git path)';
const NOTE =
  `${SOURCE}, or delete the owner (with prune it deletes what it applied, the namespace included) — deleting the ` +
  'namespace alone is undone at its next reconcile.';
const SUSPEND = 'Suspending it (the command above) stops it from applying again until it is resumed.';
const UNDONE = 'Deleting the namespace alone is undone at its next reconcile.';

/** Whether deleting `o` removes what it applied: Flux prune (unless its deletionPolicy orphans), Argo CD's finalizer. */
function prunes(o: GitOpsOwner): boolean {
  if (o.kind === 'Kustomization') return o.prune === true && o.deletionPolicy !== 'Orphan';
  if (o.kind === 'HelmRelease') return true; // Helm uninstalls its release.
  return (o.finalizers ?? []).some((f) => f.startsWith('resources-finalizer.argocd.argoproj.io'));
}

/**
 * Why deleting the owner is no advice: it would remove cluster-scoped objects with it (a CRD takes every custom
 * resource of its type, in every namespace), or what it would remove could not be read. Undefined when deleting it
 * removes only what it applied inside namespaces, or nothing.
 */
function deleteReaches(a: Actor, owners: readonly GitOpsOwner[], ns: string): string | undefined {
  const o = owners.find((x) => `${x.kind} ${x.namespace}/${x.name}` === a.name);
  if (!o || !prunes(o)) return undefined;
  if (o.clusterObjects === undefined)
    return `what deleting ${a.name} would remove could not be read (${o.kind === 'HelmRelease' ? 'a Helm release keeps its manifest in a storage Secret' : 'its applied objects are not listed'})`;
  const beyond = o.clusterObjects.filter((c) => !(c.kind === 'Namespace' && c.name === ns));
  if (beyond.length === 0) return undefined;
  const named = beyond.slice(0, 3).map((c) => `${c.kind} ${c.name}`);
  const more = beyond.length > 3 ? ` and ${beyond.length - 3} more` : '';
  return `deleting ${a.name} would also remove the cluster-scoped ${named.join(', ')}${more}, which it applied`;
}

/** The remedy's note: what stops the owners, after whatever keeps a command from stopping one. */
function noteFor(actors: readonly Actor[], v: GitOpsView): string {
  const ns = v.namespace.name;
  const stops = actors.some((a) => !a.beyond && !a.name.startsWith('ApplicationSet '));
  const beyond = actors.flatMap((a) => beyondNote(a, ns) ?? []);
  // Where every owner reaches further, deleting one is no advice either: only the source.
  if (beyond.length === actors.length) return [...beyond, UNDONE].join(' ');
  const reaches = actors.flatMap((a) => deleteReaches(a, v.gitops, ns) ?? []);
  // Deleting an owner whose prune reaches outside the namespace is never offered.
  const first = reaches.length
    ? `${SOURCE}; do not delete the owner: ${reaches.join('; ')}. ${UNDONE}`
    : NOTE;
  return [...beyond, first, ...(stops ? [SUSPEND] : [])].join(' ');
}

/** Whether a finding of a target says a live owner brings it back. */
export const recreatesIt = (f: Pick<Finding, 'verdict'>): boolean => f.verdict === 'will-recreate';

/** The recreate verdict for one namespace, from its GitOps owners; none when no owner applies the namespace. */
export function willRecreate(s: GitOpsView): Finding[] {
  const actors = recreators(s);
  if (actors.length === 0) return [];
  const ns = s.namespace.name;
  const live = actors.filter((a) => a.liveness.state === 'live');
  const unknown = actors.filter((a) => a.liveness.state === 'unknown');
  const lead = live[0] ?? unknown[0] ?? actors[0]!;
  const basis = [lead.link, ...lead.liveness.evidence].slice(0, 2);
  const base = {
    id: ID,
    cause: `will-recreate:${lead.name}|${lead.liveness.state}`,
    evidence: actors.flatMap((a) => [
      { object: a.name, field: 'targets', value: a.link },
      ...a.liveness.evidence.map((value) => ({ object: a.name, field: 'liveness', value })),
    ]),
    owner: {
      controller: lead.name,
      present: lead.liveness.state === 'unknown' ? ('unknown' as const) : lead.liveness.state === 'live',
      detail: basis[1] ?? basis[0] ?? '',
    },
    actors: actors.map(actorRecord),
    basis,
    leaked: false,
  };
  if (live.length > 0)
    return [
      {
        ...base,
        severity: 'error',
        verdict: 'will-recreate',
        summary: `namespace ${ns} will be recreated: ${lead.name} is alive and applies it again once it is gone`,
        causeSummary: `will be recreated: ${lead.name} is alive and applies it again once it is gone`,
        remedy: { commands: live.map(stopCommand), note: noteFor(live, s) },
      },
    ];
  const word = unknown.length > 0 ? 'unknown' : 'down';
  const summary =
    word === 'unknown'
      ? `namespace ${ns} may be recreated: ${lead.name} applies it, and whether its controller runs could not be told`
      : `namespace ${ns} is applied by ${lead.name}, which will not apply it now (${lead.liveness.evidence[0] ?? ''})`;
  return [
    {
      ...base,
      severity: word === 'unknown' ? 'warning' : 'notice',
      verdict: word === 'unknown' ? 'unknown' : 'down',
      summary,
      remedy: { commands: word === 'unknown' ? [stopCommand(lead)] : [], note: noteFor([lead], s) },
    },
  ];
}

/** The rule over a snapshot: only when it carries the cluster's GitOps owners. */
export function willRecreateRule(s: Snapshot): Finding[] {
  return s.gitops ? willRecreate({ ...s, gitops: s.gitops }) : [];
}
