/** Targets: resolve names and the selector, and request deletion. Reads and deletes only the targets. */
import { explain } from '../kube/explain.js';
import { KubeError, UnverifiedWrite, type Kube } from '../kube/port.js';
import { messageOf } from '../shared/errors.js';
import { type NamespaceState } from '../model/cluster.js';
import { isProtected, type Settings } from '../settings/settings.js';
import { compareText } from '../shared/compare.js';
import type { Logger } from '../shared/ports.js';
import type { Outcome } from '../model/run.js';
import { selectorMatches } from './selector.js';
import { fenceRefusal } from './fence.js';

/** A target as resolved before deletion: its state, or why there is nothing to do. */
export interface Resolved {
  name: string;
  state?: NamespaceState;
  refused?: string;
  /** The target label it lacks, when the fence refused it. */
  missingLabel?: string;
  /** Why this target could not be resolved (its outcome is `error`). */
  error?: string;
}

/** The message of a failure, for a target's note (with the RBAC hint on a 403). */
export function reasonOf(error: unknown): string {
  return explain(error);
}

/**
 * Why an answer about `name` cannot be trusted (another object, or one without name or UID), or undefined.
 * Every write addresses the input name with a UID precondition, so both must come from a matching object.
 */
export function identityProblem(name: string, state: NamespaceState): string | undefined {
  if (state.name !== name) {
    const other = state.name ? `namespace "${state.name}"` : 'an object without metadata.name';
    return `the server answered a request for namespace "${name}" with ${other}; not touched`;
  }
  if (!state.uid) return `the server's answer for namespace "${name}" has no metadata.uid; not touched`;
  return undefined;
}

/** A namespace read, checked in order: a name and UID to address it by, protection, then the fence (its target label). */
function fenced(settings: Settings, state: NamespaceState, protectedWhy?: string): Resolved {
  const name = state.name;
  if (!state.uid) return { name, error: identityProblem(name, state), refused: protectedWhy };
  if (protectedWhy !== undefined) return { name, state, refused: protectedWhy };
  const refused = fenceRefusal(settings.targetLabel, state);
  return refused ? { name, state, refused, missingLabel: settings.targetLabel } : { name, state };
}

async function resolveName(settings: Settings, kube: Kube, name: string): Promise<Resolved> {
  try {
    const state = await kube.getNamespace(name);
    if (state === undefined) return { name };
    const problem = identityProblem(name, state);
    return problem ? { name, error: problem } : fenced(settings, state);
  } catch (error) {
    return { name, error: `reading the namespace failed: ${reasonOf(error)}` };
  }
}

/** Selector matches, each checked: a real name and UID, labels that match, and not protected. */
async function resolveSelector(settings: Settings, selector: string, kube: Kube): Promise<Resolved[]> {
  const out: Resolved[] = [];
  for (const state of await kube.listNamespaces(selector)) {
    // A list item without a name cannot be addressed, and one that does not match was never a target.
    if (!state.name || !selectorMatches(selector, state.labels)) continue;
    const refused = isProtected(settings, state.name)
      ? `protected namespace matched by selector "${selector}"; not touched`
      : undefined;
    out.push(fenced(settings, state, refused));
  }
  return out;
}

/** Whether the namespace is already being deleted: its phase says so, or it carries a deletionTimestamp. */
export function isTerminating(state: NamespaceState): boolean {
  return state.phase === 'Terminating' || state.deletionTimestamp !== undefined;
}

/**
 * `scope: all-terminating`: every namespace already Terminating, narrowed by the selector when set. An Active
 * namespace is never a target, so nothing here can lead to a write on one.
 */
async function resolveTerminating(settings: Settings, kube: Kube): Promise<Resolved[]> {
  const selector = settings.selector ?? '';
  const out: Resolved[] = [];
  for (const state of await kube.listNamespaces(selector)) {
    if (!state.name || !isTerminating(state)) continue;
    if (selector !== '' && !selectorMatches(selector, state.labels)) continue;
    const refused = isProtected(settings, state.name)
      ? 'protected namespace already Terminating; not touched'
      : undefined;
    out.push(fenced(settings, state, refused));
  }
  return out.sort((a, b) => compareText(a.name, b.name));
}

/**
 * Resolve names and the selector into targets; protected selector matches are refused, never touched. A failed
 * read of one name is that target's error; a failed selector list is the run's `error` (no target known from it).
 */
export async function resolveTargets(
  settings: Settings,
  kube: Kube,
): Promise<{ targets: Resolved[]; error?: string }> {
  if (settings.scope === 'all-terminating') {
    try {
      return { targets: await resolveTerminating(settings, kube) };
    } catch (e) {
      const which = settings.selector !== undefined ? ` matching "${settings.selector}"` : '';
      return { targets: [], error: `listing the namespaces${which} failed: ${reasonOf(e)}` };
    }
  }
  const byName = new Map<string, Resolved>();
  const named = await Promise.all(settings.namespaces.map((n) => resolveName(settings, kube, n)));
  for (const r of named) byName.set(r.name, r);
  let error: string | undefined;
  if (settings.selector !== undefined) {
    try {
      for (const r of await resolveSelector(settings, settings.selector, kube)) {
        // A name given explicitly keeps its own read; the list only adds names.
        if (!byName.has(r.name)) byName.set(r.name, r);
      }
    } catch (e) {
      error = `listing namespaces by selector "${settings.selector}" failed: ${reasonOf(e)}`;
    }
  }
  const targets = [...byName.values()].sort((a, b) => compareText(a.name, b.name));
  return { targets, ...(error !== undefined ? { error } : {}) };
}

/** Request deletion (Background, UID precondition). Returns the state to wait on, or the outcome already known. */
export async function requestDeletion(
  kube: Kube,
  target: NamespaceState,
  logger: Logger,
): Promise<{ state: NamespaceState } | { outcome: Outcome; note: string }> {
  if (target.deletionTimestamp !== undefined) {
    logger.info(`${target.name}: already Terminating since ${target.deletionTimestamp}`);
    return { state: target };
  }
  try {
    const result = await kube.deleteNamespace(target.name, { uid: target.uid });
    if (result === 'gone') return { outcome: 'already-gone', note: 'gone before the delete request arrived' };
    // Deleting only when the answer shows it: removed at once, or marked with a deletionTimestamp.
    if (!result.removed && result.answer.meta.deletionTimestamp === undefined)
      return {
        outcome: 'error',
        note: 'the delete request was answered, but the answer shows the namespace not being deleted (no deletionTimestamp)',
      };
  } catch (error) {
    // Refused before it was sent (the write guard), or by the server's UID precondition.
    const refused = error instanceof UnverifiedWrite ? error.because : undefined;
    if (refused === 'recreated' || (error instanceof KubeError && error.code === 409)) {
      return {
        outcome: 'recreated',
        note: 'replaced by a new namespace before deletion; the new one was not deleted',
      };
    }
    if (refused === 'gone')
      return { outcome: 'already-gone', note: 'gone before the delete request was sent' };
    const failed = refused ? messageOf(error) : `the delete request failed: ${reasonOf(error)}`;
    return { outcome: 'error', note: failed };
  }
  logger.info(`${target.name}: deletion requested`);
  // Watch from the state read before the DELETE: the watch replays the change to Terminating and beyond.
  return { state: target };
}
