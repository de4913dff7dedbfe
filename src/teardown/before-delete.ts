/**
 * What happens to an Active target before its namespace DELETE: the pre-mortem (read-only), then, with
 * `teardown-order: custom-resources-first`, the custom-resources phase. Run only for targets this run deletes.
 */
import { diagnose, takeSnapshot } from '../diagnosis/index.js';
import type { BindingState, Snapshot } from '../diagnosis/types.js';
import { readRoleBindings } from '../diagnosis/cluster-reads.js';
import type { SharedReads } from '../diagnosis/reads.js';
import type { Kube } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import type { Settings } from '../settings/settings.js';
import { messageOf } from '../shared/errors.js';
import type { Clock, Logger } from '../shared/ports.js';
import { Slots } from '../shared/slots.js';
import { readCatalog, type Catalog } from './cr-catalog.js';
import { customResourcesFirst } from './custom-resources.js';
import type { CustomResourcesPhase, PreMortem } from '../model/early.js';
import type { TargetReport } from '../model/run.js';
import { deletesPodsFirst, predict } from './predict.js';
import { settle } from './settle.js';

/** What was found and done before the DELETE of one target. */
export interface Early {
  preMortem?: PreMortem;
  customResources?: CustomResourcesPhase;
  /** The target's RoleBindings as read before its DELETE: where this run's rights may come from. */
  roleBindings?: BindingState[];
}

interface Deps {
  kube: Kube;
  logger: Logger;
  clock: Clock;
  signal?: AbortSignal;
  /** The run's cluster-wide reads, shared by every pre-mortem while fresh. */
  shared?: SharedReads;
}

/** Pre-mortems in flight at once: each is a full metadata scan of one namespace. */
const PRE_MORTEMS_AT_ONCE = 4;
/**
 * Above this many namespaces to delete, none gets a pre-mortem or the custom-resources phase: each is a full scan
 * of its namespace (and reads of the cluster's workloads and roles) before its DELETE, and thousands of them would
 * hold the DELETEs back past the deadline.
 */
export const PRE_MORTEM_MAX_TARGETS = 50;

/** Runs the pre-mortem and the custom-resources phase per target; the cluster-wide reads once per run. */
export class BeforeDelete {
  private podsFirst?: Promise<boolean | 'unknown'>;
  private catalog?: Promise<Catalog>;
  private readonly slots = new Slots(PRE_MORTEMS_AT_ONCE);
  /** Why no target gets either, when there are too many to delete. */
  private readonly tooMany?: string;

  constructor(
    private readonly settings: Settings,
    private readonly deps: Deps,
    /** The wait's deadline (start + timeout): the phase never goes past it. */
    private readonly deadline: number,
    /** How many Active targets this run deletes. */
    toDelete = 0,
  ) {
    if (toDelete > PRE_MORTEM_MAX_TARGETS) {
      const phase = settings.teardownOrder === 'custom-resources-first';
      this.tooMany =
        `${toDelete} namespaces to delete, more than ${PRE_MORTEM_MAX_TARGETS}: no pre-mortem` +
        `${phase ? ' and no custom resources first' : ''} (each needs a full scan of its namespace before its DELETE)` +
        `${phase ? '; they are deleted as with teardown-order: namespace' : ''}`;
      deps.logger.warning(this.tooMany);
    }
  }

  /** For an Active target about to be deleted: predict, then (by the order chosen) delete its custom resources first. */
  async run(state: NamespaceState): Promise<Early> {
    const early: Early = {};
    if (this.tooMany) return { customResources: skipped(this.tooMany) };
    try {
      const { preMortem, snapshot } = await this.preMortem(state);
      early.preMortem = preMortem;
      early.roleBindings = await this.roleBindings(state, snapshot);
      if (this.settings.teardownOrder === 'custom-resources-first' && !this.deps.signal?.aborted) {
        early.customResources = await this.phase(state, snapshot);
      }
    } catch (error) {
      // Neither may keep the namespace from being deleted: say what failed and go on as `namespace` order does.
      this.deps.logger.warning(`${state.name}: before the delete: ${messageOf(error)}`);
      early.customResources ??= skipped(`failed: ${messageOf(error)}`);
    }
    return early;
  }

  /** Put the settled predictions and the phase into the target's report. */
  finish(report: TargetReport, early: Early): void {
    if (early.preMortem) {
      const predictions = early.preMortem.predictions.map((p) => settle(p, report));
      report.preMortem = { ...early.preMortem, predictions };
    }
    if (early.customResources) report.customResources = early.customResources;
  }

  private async preMortem(state: NamespaceState): Promise<{ preMortem: PreMortem; snapshot: Snapshot }> {
    const { kube, clock, logger } = this.deps;
    this.podsFirst ??= kube.getRaw('/version').then(deletesPodsFirst, () => 'unknown' as const);
    const podsFirst = await this.podsFirst;
    await this.slots.acquire();
    const started = clock.now();
    try {
      const snapshot = await takeSnapshot(kube, state, {
        scan: 'full',
        webhooks: true,
        clock: () => clock.now(),
        ...(this.deps.shared ? { shared: this.deps.shared } : {}),
      });
      const predictions = predict(snapshot, diagnose(snapshot), {
        order: this.settings.teardownOrder,
        podsFirst,
      });
      for (const p of predictions) logger.info(`${state.name}: predicted before deleting: ${p.summary}`);
      const preMortem = { tookMs: clock.now() - started, predictions, readErrors: snapshot.readErrors };
      return { preMortem, snapshot };
    } finally {
      this.slots.release();
    }
  }

  /** The target's RoleBindings: from the pre-mortem when it read them, else one list (undefined when refused). */
  private async roleBindings(state: NamespaceState, snapshot: Snapshot): Promise<BindingState[] | undefined> {
    const read = snapshot.rbac.bindings.filter((b) => b.kind === 'RoleBinding');
    if (read.length > 0) return read;
    return readRoleBindings(this.deps.kube, state.name);
  }

  private async phase(state: NamespaceState, snapshot: Snapshot): Promise<CustomResourcesPhase> {
    const aggregated = new Set(
      snapshot.apiServices.filter((a) => a.service).map((a) => `${a.group}/${a.version}`),
    );
    this.catalog ??= readCatalog(this.deps.kube, aggregated);
    const catalog = await this.catalog;
    const { clock } = this.deps;
    const deadline = Math.min(clock.now() + this.settings.customResourcesTimeoutMs, this.deadline);
    return customResourcesFirst(
      { ...this.deps, deadline, dryRun: this.settings.force.mode === 'dry-run' },
      state,
      snapshot,
      catalog,
    );
  }
}

function skipped(note: string): CustomResourcesPhase {
  return { mode: 'skipped', note, tookMs: 0, objects: [], types: [], skippedTypes: [] };
}
