/** While a namespace is Terminating: diagnose it when it is slow or stuck, and force it when the policy allows. */
import {
  compareFindings,
  diagnose,
  sightOf,
  takeSnapshot,
  type EarlierSight,
  type SharedReads,
  type Snapshot,
} from '../diagnosis/index.js';
import type { Finding, Leftover, ScanChoice } from '../model/findings.js';
import type { AuditEntry, Plan, ForcePolicy } from '../model/force.js';
import { cameBack, decide, executePlan, withPutBack } from '../force/index.js';
import type { Kube } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import { formatDuration } from '../shared/duration.js';
import { messageOf } from '../shared/errors.js';
import type { Clock, Logger } from '../shared/ports.js';
import { forcingLeft, settledPlan, type Settledness, settledness } from './settle.js';

/** Forcing passes per namespace, and the pause between them while it is still there. */
const FORCE_PASSES = 3;
const FORCE_RETRY_MS = 10_000;
/**
 * How often a checkpoint looks again while the wait has not yet seen the namespace Terminating (a DELETE answer
 * read before the change, a late first watch event). Looking reads only the wait's last state, no API call; the
 * server's deletionTimestamp has whole seconds, so force-after is never kept more finely than this anyway.
 */
const LOOK_AGAIN_MS = 1_000;

/**
 * Whether another pass may find more: after forced writes, or when nothing could be forced yet (the controller may
 * not have marked what blocks). A dry-run that planned steps decides once, so its audit is not repeated.
 */
const again = (plan: Plan): boolean =>
  (plan.mode === 'on' && plan.decision === 'force') ||
  plan.decision === 'nothing-to-force' ||
  plan.decision === 'nothing-allowed';

/** What the inspector needs besides the cluster. */
export interface InspectDeps {
  kube: Kube;
  logger: Logger;
  clock: Clock;
  force: ForcePolicy;
  isProtected: (name: string) => boolean;
  /** Diagnose a namespace still Terminating after this long, even if it goes away later. */
  slowAfterMs: number;
  /** Read errors already warned about in this run (shared by every namespace's inspector). */
  warned?: Set<string>;
  /** The run's cluster-wide reads, shared by every snapshot while fresh. */
  shared?: SharedReads;
}

/** What the inspector did for one namespace. */
export interface Inspection {
  findings: Finding[];
  diagnosedBecause?: string;
  /** Which namespace scan the last diagnosis ran, and why. */
  scan?: ScanChoice;
  /** The plan of the last forcing pass. */
  plan?: Plan;
  /** The plan of every forcing pass, in order (the last is `plan`). */
  plans: Plan[];
  audit: AuditEntry[];
  /** True when a forced write was made (mode `on`), so the outcome of a gone namespace is `forced`. */
  forcedWrites: boolean;
  /** What the last diagnosis could not read (a 403, a timeout, a type that failed to list). */
  unread: Snapshot['readErrors'];
}

/** Read-only: snapshot the namespace and run the rules; the leftovers are what /finalize would leave. */
async function diagnoseNow(
  deps: InspectDeps,
  ns: NamespaceState,
  earlier: EarlierSight | undefined,
): Promise<{
  findings: Finding[];
  leftovers: Leftover[];
  scan: ScanChoice;
  sight: EarlierSight;
  unread: Snapshot['readErrors'];
}> {
  const snapshot = await takeSnapshot(deps.kube, ns, {
    clock: () => deps.clock.now(),
    earlier,
    ...(deps.shared ? { shared: deps.shared } : {}),
  });
  return {
    findings: diagnose(snapshot),
    leftovers: snapshot.leftovers,
    scan: snapshot.scan,
    sight: sightOf(snapshot),
    unread: snapshot.readErrors,
  };
}

/** Findings (and read errors) logged per diagnosis; the rest are in the summary and the report. */
const LOGGED_FINDINGS = 10;

/**
 * Runs alongside the wait for one namespace. `current()` gives the latest state the wait saw (undefined once
 * gone); `since` is when it started Terminating. Stops when `signal` aborts (the wait ended).
 */
export class Inspector {
  readonly result: Inspection = { findings: [], plans: [], audit: [], forcedWrites: false, unread: [] };
  /** Read errors already warned about: meeting one again logs it as info, not a warning. */
  private readonly warned: Set<string>;
  /** The leftovers of the last diagnosis, for the force plan. */
  private leftovers: Leftover[] = [];
  /** What the last diagnosis saw, so the next one can tell finalizers released since. */
  private sight: EarlierSight | undefined;
  /** Diagnoses and forcing passes run one at a time: the settle watch looks while the checkpoints run. */
  private chain: Promise<unknown> = Promise.resolve();
  /** The forcing passes of this run are over (or there are none): forcing will change nothing more. */
  private forcingOver = false;

  constructor(
    private readonly deps: InspectDeps,
    private readonly since: number,
  ) {
    this.warned = deps.warned ?? new Set();
  }

  /** Run `step` after the diagnosis or forcing pass under way, if any. */
  private serial<T>(step: () => Promise<T>): Promise<T> {
    const next = this.chain.then(step, step);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Diagnose (and log) the namespace now; keeps the findings. */
  diagnose(ns: NamespaceState, because: string): Promise<Finding[]> {
    return this.serial(async () => (await this.diagnoseNow(ns, because)) ?? this.result.findings);
  }

  /** Diagnose now and tell whether the namespace is settled, forcing included (see settle.ts). */
  look(ns: NamespaceState, because: string): Promise<Settledness> {
    return this.serial(async () => {
      const findings = await this.diagnoseNow(ns, because);
      if (!findings) return { settled: false, why: 'the diagnosis failed' };
      const now = this.deps.clock.now();
      const forcing = forcingLeft(ns, findings, now, {
        policy: this.deps.force,
        isProtected: this.deps.isProtected,
        leftovers: this.leftovers,
        over: this.forcingOver,
        forceAt: this.forceAt,
        earlier: this.result.audit,
      });
      return settledness(ns, findings, now, forcing);
    });
  }

  /** The wait ended settled before force-after: record the plan forcing would make then (see settledPlan). */
  planAtSettle(ns: NamespaceState): void {
    const { force, clock, logger, isProtected } = this.deps;
    if (this.result.plan !== undefined) return;
    const { findings, audit } = this.result;
    const plan = settledPlan(force, ns, findings, clock.now(), isProtected, this.leftovers, audit);
    if (!plan) return;
    this.result.plan = plan;
    this.result.plans.push(plan);
    logger.info(`${ns.name}: force ${plan.mode}: ${plan.decision} (settled before force-after)`);
  }

  private get forceAt(): number {
    return this.deps.force.mode === 'off' ? Infinity : this.since + this.deps.force.afterMs;
  }

  /** Diagnose now; undefined when the diagnosis failed (the findings kept are then the earlier ones). */
  private async diagnoseNow(ns: NamespaceState, because: string): Promise<Finding[] | undefined> {
    const { logger } = this.deps;
    try {
      // No log group here: diagnoses of several namespaces run at once, and groups cannot nest.
      const seen = await diagnoseNow(this.deps, ns, this.sight);
      const { leftovers, scan, sight, unread } = seen;
      // What forced writes found put back is read from their answers, not from the snapshot.
      const findings = withPutBack(seen.findings, this.result.audit, ns.name).sort(compareFindings);
      this.leftovers = leftovers;
      this.sight = sight;
      this.logUnread(ns.name, unread);
      this.result.unread = unread;
      logger.info(`${ns.name}: diagnosed (${because}): ${findings.length} finding(s), ${scan.mode} scan`);
      for (const f of findings.slice(0, LOGGED_FINDINGS))
        logger.info(`${ns.name}: ${f.severity} ${f.id}: ${f.summary}`);
      if (findings.length > LOGGED_FINDINGS)
        logger.info(`${ns.name}: … and ${findings.length - LOGGED_FINDINGS} more finding(s), in the summary`);
      this.result.findings = findings;
      this.result.diagnosedBecause = because;
      this.result.scan = scan;
      return findings;
    } catch (error) {
      logger.warning(`${ns.name}: diagnosis failed: ${messageOf(error)}`);
      return undefined;
    }
  }

  /** Each read error is a warning once per run (GitHub shows few warnings), then info; the report has them all. */
  private logUnread(name: string, unread: Snapshot['readErrors']): void {
    for (const e of unread.slice(0, LOGGED_FINDINGS)) {
      const line = `${name}: could not read ${e.what}: ${e.error}`;
      if (this.warned.has(`${e.what}\u0000${e.error}`)) this.deps.logger.info(line);
      else this.deps.logger.warning(line);
      this.warned.add(`${e.what}\u0000${e.error}`);
    }
    if (unread.length > LOGGED_FINDINGS)
      this.deps.logger.info(
        `${name}: … and ${unread.length - LOGGED_FINDINGS} more read error(s), in the report`,
      );
  }

  /** Decide and, in mode `on`, execute the forced changes; dry-run records the plan only. */
  force(ns: NamespaceState): Promise<void> {
    return this.serial(() => this.forceNow(ns));
  }

  private async forceNow(ns: NamespaceState): Promise<void> {
    const { force, logger, clock, kube } = this.deps;
    await this.readBack(ns);
    await this.diagnoseNow(ns, `diagnosed before forcing, Terminating for ${this.age()}`);
    const findings = this.result.findings;
    const earlier = this.result.audit;
    const plan = decide(force, ns, findings, clock.now(), this.deps.isProtected, this.leftovers, earlier);
    this.result.plan = plan;
    this.result.plans.push(plan);
    logger.info(`${ns.name}: force ${plan.mode}: ${plan.decision}, ${plan.steps.length} step(s)`);
    if (plan.steps.length === 0 || plan.decision !== 'force') return;
    const audit = await executePlan(kube, plan, {
      dryRun: plan.mode !== 'on',
      logger,
      clock,
      expectedUid: ns.uid,
      namespaceLabels: ns.labels,
    });
    this.result.audit.push(...audit);
    if (audit.some((a) => a.writes > 0)) this.result.forcedWrites = true;
  }

  /** A /finalize an earlier pass saw done whose spec.finalizers are back: recorded as put back, not written again. */
  private async readBack(ns: NamespaceState): Promise<void> {
    const at = new Date(this.deps.clock.now()).toISOString();
    try {
      const back = await cameBack(this.deps.kube, ns, this.result.audit, at);
      if (!back) return;
      this.result.audit.push(back);
      if (back.result === 'not-removed')
        this.deps.logger.warning(`${ns.name}: ${back.object} ${back.field}: ${back.why}`);
    } catch (error) {
      this.deps.logger.warning(`${ns.name}: reading it back after /finalize failed: ${messageOf(error)}`);
    }
  }

  /** Sleep until `at` or the end of the wait; true when `at` was reached. */
  async until(at: number, signal: AbortSignal): Promise<boolean> {
    const wait = at - this.deps.clock.now();
    if (wait > 0) await this.deps.clock.sleep(wait, signal);
    return !signal.aborted;
  }

  /**
   * The namespace as the wait last saw it Terminating, at `at` or as soon after as it is seen so; undefined once
   * the wait ends, or when `before` comes first. Not seen yet is not gone: the end of the wait says gone.
   */
  private async terminating(
    at: number,
    current: () => NamespaceState | undefined,
    signal: AbortSignal,
    before = Infinity,
  ): Promise<NamespaceState | undefined> {
    let next = at;
    while (next < before && (await this.until(next, signal))) {
      const ns = current();
      if (ns?.deletionTimestamp !== undefined) return ns;
      next = this.deps.clock.now() + LOOK_AGAIN_MS;
    }
    return undefined;
  }

  /** The checkpoints during the wait: slow diagnosis, then forcing once force-after is reached. */
  async run(current: () => NamespaceState | undefined, signal: AbortSignal): Promise<void> {
    try {
      await this.checkpoints(current, signal);
    } finally {
      this.forcingOver = true;
    }
  }

  private async checkpoints(current: () => NamespaceState | undefined, signal: AbortSignal): Promise<void> {
    const { slowAfterMs } = this.deps;
    const forceAt = this.forceAt;
    const slowAt = this.since + slowAfterMs;
    // Seen Terminating only once forcing is due, it is left to the forcing pass, which diagnoses first.
    const slow = slowAt < forceAt ? await this.terminating(slowAt, current, signal, forceAt) : undefined;
    if (slow) await this.diagnose(slow, `still Terminating after ${this.age()}`);
    if (forceAt === Infinity) return;
    let at = forceAt;
    for (let pass = 0; pass < FORCE_PASSES; pass++) {
      const ns = await this.terminating(at, current, signal);
      if (!ns) return;
      await this.force(ns);
      const plan = this.result.plan!;
      // The server's deletionTimestamp (whole seconds, its own clock) may put force-after a little later.
      if (plan.decision === 'not-yet' && plan.waitMs !== undefined) at = this.deps.clock.now() + plan.waitMs;
      else if (again(plan)) at = this.deps.clock.now() + FORCE_RETRY_MS;
      else return;
    }
  }

  /** How long the namespace has been Terminating, in words. */
  age(): string {
    return formatDuration(this.deps.clock.now() - this.since);
  }
}
