/**
 * What happens to an Active target before its namespace DELETE: the pre-mortem (read-only), then, with
 * `teardown-order: custom-resources-first`, the custom-resources phase. Run only for targets this run deletes.
 */
import {
  diagnose,
  readRoleBindings,
  takeSnapshot,
  type BindingState,
  type SharedReads,
  type Snapshot,
} from '../diagnosis/index.js';
import type { Kube } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import type { Settings } from '../settings/settings.js';
import { messageOf } from '../shared/errors.js';
import type { Clock, Logger } from '../shared/ports.js';
import { Slots } from '../shared/slots.js';
import { readCatalog, type Catalog } from './custom-resource-types.js';
import { customResourcesFirst } from './custom-resources.js';
import type { CustomResourcesPhase, PreMortem } from '../model/prevention.js';
import type { TargetReport } from '../model/run.js';
import { deletesPodsFirst, predict } from './pre-mortem.js';
import { settle } from './pre-mortem-settle.js';
import { Holds } from './hold-back.js';
import { mayHost, servedBy } from './delete-order.js';

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

/**
 * Runs the pre-mortems and the custom-resources phases of all targets before any namespace DELETE, then holds back
 * the DELETE of a target that hosts a live actor for objects in other targets; the cluster-wide reads once per run.
 */
export class BeforeDelete {
  private podsFirst?: Promise<boolean | 'unknown'>;
  private catalog?: Promise<Catalog>;
  private readonly slots = new Slots(PRE_MORTEMS_AT_ONCE);
  /** Why no target gets either, when there are too many to delete. */
  private readonly tooMany?: string;
  /** Each prepared target's pre-mortem and phase; `all` once every one has ended (and the holds are known). */
  private own?: Map<string, Promise<{ early: Early; snapshot?: Snapshot }>>;
  private all?: Promise<void>;
  /** Until when a host may be held back: its share of the timeout, never past the wait's deadline. */
  private holdUntil = 0;
  readonly holds: Holds;

  constructor(
    private readonly settings: Settings,
    private readonly deps: Deps,
    /** The wait's deadline (start + timeout): the phase never goes past it. */
    private readonly deadline: number,
    /** How many Active targets this run deletes. */
    toDelete = 0,
  ) {
    this.holds = new Holds(deps.clock, deps.logger);
    if (toDelete > PRE_MORTEM_MAX_TARGETS) {
      const phase = settings.teardownOrder === 'custom-resources-first';
      this.tooMany =
        `${toDelete} namespaces to delete, more than ${PRE_MORTEM_MAX_TARGETS}: no pre-mortem` +
        `${phase ? ' and no custom resources first' : ''} (each needs a full scan of its namespace before its DELETE)` +
        `${phase ? '; they are deleted as with teardown-order: namespace' : ''}`;
      deps.logger.warning(this.tooMany);
    }
  }

  private get phased(): boolean {
    return this.settings.teardownOrder === 'custom-resources-first' && !this.deps.signal?.aborted;
  }

  /**
   * Start on every Active target this run deletes at once: its pre-mortem, then its custom-resources phase. A target
   * that may host an actor for another goes only once every phase has ended, so the custom resources of all targets go
   * (and are waited for) while every controller still runs.
   */
  prepare(states: readonly NamespaceState[]): void {
    if (this.tooMany || states.length === 0) return;
    const { clock } = this.deps;
    this.holdUntil = Math.min(clock.now() + this.settings.customResourcesTimeoutMs, this.deadline);
    const firsts = new Map(states.map((s) => [s.name, this.first(s)] as const));
    const served = Promise.all(
      states.map(async (s) => [s.name, (await firsts.get(s.name)!).snapshot] as const),
    ).then((list) => {
      const snapshots = new Map(list.flatMap(([name, snap]) => (snap ? [[name, snap] as const] : [])));
      if (this.phased) this.holds.set(servedBy(snapshots));
    });
    this.own = new Map(
      states.map((s) => [
        s.name,
        firsts.get(s.name)!.then(async (f) => {
          if (f.snapshot && this.phased) f.early.customResources = await this.phaseOf(s, f.snapshot);
          return f;
        }),
      ]),
    );
    this.all = Promise.all([served, ...this.own.values()]).then(() => undefined);
    this.all.catch(() => undefined);
  }

  /** For an Active target about to be deleted: what was foreseen and done before, once its DELETE may go. */
  async run(state: NamespaceState): Promise<Early> {
    if (this.tooMany) return { customResources: skipped(this.tooMany) };
    const own = await this.own?.get(state.name);
    const early = own?.early ?? (await this.alone(state));
    // Nothing that runs lives in a target without workloads, pods or Services: it cannot host another's actor.
    if (!own?.snapshot || mayHost(own.snapshot)) await this.all;
    // Plan mode waits for nothing: nothing was deleted, so a host would only be held.
    const held = !this.phased
      ? undefined
      : this.settings.dryRun
        ? this.holds.planned(state.name)
        : await this.holds.wait(state.name, this.holdUntil, this.deps.signal);
    if (held) early.customResources = { ...(early.customResources ?? skipped('no custom resources')), held };
    return early;
  }

  /** A target the run did not prepare with the others (never, in a run): the same steps, alone. */
  private async alone(state: NamespaceState): Promise<Early> {
    const { early, snapshot } = await this.first(state);
    if (snapshot && this.phased) early.customResources = await this.phaseOf(state, snapshot);
    return early;
  }

  /** The pre-mortem and the RoleBindings of one target; a failure is said and never keeps it from being deleted. */
  private async first(state: NamespaceState): Promise<{ early: Early; snapshot?: Snapshot }> {
    try {
      const { preMortem, snapshot } = await this.preMortem(state);
      return { early: { preMortem, roleBindings: await this.roleBindings(state, snapshot) }, snapshot };
    } catch (error) {
      this.deps.logger.warning(`${state.name}: before the delete: ${messageOf(error)}`);
      return { early: { customResources: skipped(`failed: ${messageOf(error)}`) } };
    }
  }

  /** One target's custom-resources phase; a failure is said, and the namespace DELETE still follows. */
  private async phaseOf(state: NamespaceState, snapshot: Snapshot): Promise<CustomResourcesPhase> {
    try {
      return await this.phase(state, snapshot);
    } catch (error) {
      this.deps.logger.warning(`${state.name}: before the delete: ${messageOf(error)}`);
      return skipped(`failed: ${messageOf(error)}`);
    }
  }

  /** A target's story ended: the hosts held for it may go. */
  finished(name: string): void {
    this.holds.finished(name);
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
      { ...this.deps, deadline, dryRun: this.settings.force.mode === 'dry-run', plan: this.settings.dryRun },
      state,
      snapshot,
      catalog,
    );
  }
}

function skipped(note: string): CustomResourcesPhase {
  return { mode: 'skipped', note, tookMs: 0, objects: [], types: [], skippedTypes: [] };
}
