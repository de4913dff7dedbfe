/** The cluster's mutating admission webhooks, and the Service and ready endpoints of those a caller asks about. */
import { toMutatingWebhooks, type MutatingWebhookState } from '../mutating.js';
import { readBacking } from './cluster-reads.js';
import { PATHS, READ_AREA } from './read-paths.js';
import type { Reads } from './reader.js';

const WHAT = `${READ_AREA.webhooks} MutatingWebhookConfiguration`;

/** Every webhook of every MutatingWebhookConfiguration; undefined when they could not be listed (see `reads.errors`). */
export async function readMutatingWebhooks(reads: Reads): Promise<MutatingWebhookState[] | undefined> {
  const raw = await reads.listRaw(WHAT, PATHS.webhookConfigs.MutatingWebhookConfiguration);
  return raw?.flatMap(toMutatingWebhooks);
}

/** What `readBacking` gives, shared by every webhook served by one Service. */
export type BackingReads = Map<string, ReturnType<typeof readBacking>>;

/** The webhooks with their Service's backing read (once per Service across calls sharing `known`). */
export function withBacking(
  reads: Reads,
  hooks: readonly MutatingWebhookState[],
  known: BackingReads,
): Promise<MutatingWebhookState[]> {
  return reads.map(hooks, async (w) => {
    if (!w.service) return w;
    const key = `${w.service.namespace}/${w.service.name}`;
    if (!known.has(key)) {
      const what = `${WHAT} ${w.configuration} backing service ${key}`;
      known.set(key, readBacking(reads, what, w.service.namespace, w.service.name));
    }
    const backing = await known.get(key);
    return backing ? { ...w, backing } : w;
  });
}
