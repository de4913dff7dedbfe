/** The namespace deletion conditions (pkg/controller/namespace/deletion/status_condition_utils.go). */
import { isoSeconds } from './meta.js';
import type { NamespaceCondition } from './types.js';

export const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

/** Reason and message of each condition when it reports no failure (status False), in controller order. */
export const HEALTHY_CONDITIONS: Record<(typeof CONDITION_TYPES)[number], [string, string]> = {
  NamespaceDeletionDiscoveryFailure: ['ResourcesDiscovered', 'All resources successfully discovered'],
  NamespaceDeletionGroupVersionParsingFailure: [
    'ParsedGroupVersions',
    'All legacy kube types successfully parsed',
  ],
  NamespaceDeletionContentFailure: [
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  NamespaceContentRemaining: ['ContentRemoved', 'All content successfully removed'],
  NamespaceFinalizersRemaining: ['ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
};

const failing = (type: string, reason: string, message: string): NamespaceCondition => ({
  type,
  status: 'True',
  lastTransitionTime: isoSeconds(),
  reason,
  message,
});

/** Collects a pass's failures, then merges them into a namespace's conditions. */
export class ConditionUpdater {
  private readonly newConditions: NamespaceCondition[] = [];
  private readonly contentErrors: string[] = [];

  discoveryFailed(groupsFailing: number, err: string): void {
    this.newConditions.push(
      failing(
        'NamespaceDeletionDiscoveryFailure',
        'DiscoveryFailed',
        `Discovery failed for some groups, ${groupsFailing} failing: ${err}`,
      ),
    );
  }

  contentError(err: string): void {
    this.contentErrors.push(err);
  }

  /** `gvrRemaining`: "resource.group" -> count; `finalizersRemaining`: finalizer -> count. */
  contentTotals(gvrRemaining: Map<string, number>, finalizersRemaining: Map<string, number>): void {
    const res = [...gvrRemaining]
      .filter(([, n]) => n > 0)
      .map(([gr, n]) => `${gr} has ${n} resource instances`);
    if (res.length) {
      this.newConditions.push(
        failing(
          'NamespaceContentRemaining',
          'SomeResourcesRemain',
          `Some resources are remaining: ${res.sort().join(', ')}`,
        ),
      );
    }
    const fin = [...finalizersRemaining]
      .filter(([, n]) => n > 0)
      .map(([f, n]) => `${f} in ${n} resource instances`);
    if (fin.length) {
      this.newConditions.push(
        failing(
          'NamespaceFinalizersRemaining',
          'SomeFinalizersRemain',
          `Some content in the namespace has finalizers remaining: ${fin.sort().join(', ')}`,
        ),
      );
    }
  }

  /** Merge into `conditions` (mutated); true when anything changed. */
  update(conditions: NamespaceCondition[]): boolean {
    if (
      this.contentErrors.length &&
      !this.newConditions.some((c) => c.type === 'NamespaceDeletionContentFailure')
    ) {
      const msgs = [...this.contentErrors].sort();
      this.newConditions.push(
        failing(
          'NamespaceDeletionContentFailure',
          'ContentDeletionFailed',
          `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
        ),
      );
    }
    let changed = false;
    for (const type of CONDITION_TYPES) {
      const [reason, message] = HEALTHY_CONDITIONS[type];
      const next = this.newConditions.find((c) => c.type === type) ?? {
        type,
        status: 'False',
        lastTransitionTime: isoSeconds(),
        reason,
        message,
      };
      const old = conditions.find((c) => c.type === type);
      if (!old) {
        conditions.push(next);
        changed = true;
      } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
        if (old.status !== next.status) old.lastTransitionTime = isoSeconds();
        old.status = next.status;
        old.reason = next.reason;
        old.message = next.message;
        changed = true;
      }
    }
    return changed;
  }
}
