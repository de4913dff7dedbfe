/**
 * Who put back what a forced write removed, when the server answered the write with it still there: a mutating webhook
 * whose rules reach the write (named, with where it is served and whether it is up), else a field manager that
 * managedFields name, else unknown, saying why. The cluster's mutating webhooks are read once per lookup.
 */
import {
  reachesUpdate,
  readMutatingWebhooks,
  Reads,
  shellCommand,
  withBacking,
  type BackingReads,
  type MutatingWebhookState,
  type WriteSubject,
} from '../diagnosis/index.js';
import type { KubeReader, WriteAnswer } from '../kube/port.js';
import type { PutBack, UndoneBy, WebhookSuspect } from '../model/force.js';

/** The field manager the adapter's own writes are recorded under (its User-Agent): never who put anything back. */
export const OWN_MANAGER = 'namespace-teardown';

/** The object written, as commands name it, and the field its answer is read from. */
export interface Written {
  subject: WriteSubject;
  /** `kialis.kiali.io`, `namespaces`. */
  resource: string;
  name: string;
  namespace?: string;
  /** The field read back: a finalizer list, or (a GitOps owner's suspension) its spec. */
  field: PutBack['field'] | 'spec';
}

/** A finalizer removal's object and the finalizer list it is read back from. */
export type FinalizersWritten = Written & { field: PutBack['field'] };

/** Whether the webhook is up, in words, from the write itself and from its Service as read. */
function aliveWords(w: MutatingWebhookState, certain: boolean): string {
  const b = w.backing;
  const svc = w.service && `${w.service.namespace}/${w.service.name}`;
  const service = !svc
    ? undefined
    : !b
      ? `its Service ${svc} could not be read`
      : !b.serviceExists
        ? `its Service ${svc} does not exist`
        : `its Service ${svc} has ${b.readyEndpoints} ready endpoint(s)`;
  // A failurePolicy Fail webhook that cannot be called refuses the write: this one answered it.
  const answered = certain && w.failurePolicy === 'Fail' ? 'up: it answered this write' : undefined;
  if (answered) return service ? `${answered}; ${service}` : answered;
  if (b && b.serviceExists && b.readyEndpoints > 0) return `up: ${service}`;
  return service ? `not known to be up: ${service}` : 'not known: its URL is not probed from here';
}

function suspectOf(w: MutatingWebhookState, certain: boolean): WebhookSuspect {
  return {
    configuration: w.configuration,
    name: w.name,
    served: w.served,
    alive: aliveWords(w, certain),
    failurePolicy: w.failurePolicy,
    certain,
  };
}

/** The object's own look-up, with its managedFields. */
function objectLookup(o: Written): string {
  const ns = o.namespace ? ['-n', o.namespace] : [];
  return shellCommand('kubectl', 'get', o.resource, o.name, ...ns, '--show-managed-fields', '-o', 'yaml');
}

/** What to change and how to look, for who put it back. */
function remedyOf(by: UndoneBy, o: Written, kept: string): Pick<PutBack, 'remedy' | 'lookups'> {
  if (by.kind === 'webhook') {
    const w = by.webhooks[0]!;
    return {
      remedy:
        `change the mutating webhook ${w.name} (MutatingWebhookConfiguration ${w.configuration}, ${w.served}) so it stops putting ${kept} back: ` +
        `leave this object out of its rules, namespaceSelector or objectSelector, or fix the webhook so it adds no finalizer to an object being deleted. ` +
        `Removing ${kept} again is undone the same way. The webhook acts on every matching UPDATE in the cluster: deleting or disabling its configuration switches that off for everyone`,
      lookups: [
        ...new Set(
          by.webhooks.map((x) =>
            shellCommand('kubectl', 'get', 'mutatingwebhookconfiguration', x.configuration, '-o', 'yaml'),
          ),
        ),
      ],
    };
  }
  if (by.kind === 'manager')
    return {
      remedy: `stop or fix ${by.managers.join(', ')} (the manager managedFields name for ${o.field}) before removing ${kept} again`,
      lookups: [objectLookup(o)],
    };
  return {
    remedy: `find what puts ${kept} back (a mutating webhook, a controller) and change it; removing ${kept} again is undone the same way`,
    lookups: [shellCommand('kubectl', 'get', 'mutatingwebhookconfigurations'), objectLookup(o)],
  };
}

/** The managers managedFields name for the field after the write, but the run's own. */
function managersOf(answer: WriteAnswer, field: Written['field']): string[] {
  if (field === 'spec') return [];
  const all =
    field === 'spec.finalizers' ? answer.specFinalizerManagers : (answer.meta.finalizerManagers ?? []);
  return all.filter((m) => m !== OWN_MANAGER);
}

/** Looks up who put back what forced writes removed; one per forcing pass, so the webhooks are read once. */
export class PutBackLookup {
  private readonly reads: Reads;
  private readonly backings: BackingReads = new Map();
  private hooks: Promise<MutatingWebhookState[] | undefined> | undefined;

  constructor(kube: KubeReader) {
    this.reads = new Reads(kube, 4, 500);
  }

  /** Who undid the write, from the webhooks whose rules reach it and the answer's managedFields. */
  async who(o: Written, answer: WriteAnswer): Promise<UndoneBy> {
    this.hooks ??= readMutatingWebhooks(this.reads);
    const hooks = await this.hooks;
    const managers = managersOf(answer, o.field);
    const named = managers.length
      ? `; managedFields name ${managers.join(', ')} as manager of ${o.field}`
      : '';
    if (hooks === undefined) {
      const error = this.reads.errors[0]?.error ?? 'unknown error';
      return {
        kind: 'unknown',
        why: `the MutatingWebhookConfigurations could not be read (${error})${named}`,
      };
    }
    const reach = hooks.map((w) => ({ w, r: reachesUpdate(w, o.subject) })).filter((x) => x.r !== 'no');
    if (reach.length > 0) {
      const backed = await withBacking(
        this.reads,
        reach.map((x) => x.w),
        this.backings,
      );
      const suspects = backed.map((w, i) => suspectOf(w, reach[i]!.r === 'yes'));
      // The ones sure to reach the write, and answering it under failurePolicy Fail, first.
      const rank = (s: WebhookSuspect): number => (s.certain ? 0 : 2) + (s.failurePolicy === 'Fail' ? 0 : 1);
      return { kind: 'webhook', webhooks: suspects.sort((a, b) => rank(a) - rank(b)) };
    }
    if (managers.length > 0) return { kind: 'manager', managers };
    return {
      kind: 'unknown',
      why: `no MutatingWebhookConfiguration's rules reach an UPDATE of ${o.resource}${o.subject.subresource ? `/${o.subject.subresource}` : ''} (${hooks.length} webhook(s) read), and managedFields name no other manager of ${o.field}`,
    };
  }

  /** The whole put-back record of a step whose last answer still shows `kept`. */
  async putBack(
    o: FinalizersWritten,
    answer: WriteAnswer,
    at: { kept: string[]; writes: number; unchanged: boolean },
  ): Promise<PutBack> {
    const by = await this.who(o, answer);
    return { field: o.field, ...at, by, ...remedyOf(by, o, at.kept.join(', ')) };
  }
}
