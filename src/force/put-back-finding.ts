/**
 * What forced writes the server answered without their effect add to a namespace's findings: one `finalizer-put-back`
 * finding per finalizer, field and who put it back (its remedy is that webhook or controller), and the findings that
 * told to remove those finalizers lose that advice, since removing them again is undone the same way. Pure.
 */
import type { AuditEntry, PutBack } from '../model/force.js';
import type { Evidence, Finding } from '../model/findings.js';
import { objectLabel } from '../diagnosis/index.js';
import { webhookOf, whoPutBack } from './put-back-words.js';

/** An audit entry the server answered without its effect, with who put it back. */
type PutBackEntry = AuditEntry & { result: 'not-removed'; putBack: PutBack };

const isPutBack = (e: AuditEntry): e is PutBackEntry => e.result === 'not-removed' && e.putBack !== undefined;

/** `kialis.kiali.io` of `kialis.kiali.io/kiali`. */
const typeOf = (object: string): string => object.slice(0, Math.max(0, object.lastIndexOf('/')));

/** Who, without object names: what groups the objects one webhook (or one unknown) puts the same finalizer back on. */
function whoKey(p: PutBack): string {
  const w = webhookOf(p);
  if (w) return `webhook:${w.configuration}/${w.name}`;
  return p.by.kind === 'manager' ? `manager:${p.by.managers.join(',')}` : 'unknown';
}

/** Evidence of one entry: what the answer still showed, and the webhook whose rules reach the write. */
function evidenceOf(e: PutBackEntry): Evidence[] {
  const p = e.putBack;
  const answered: Evidence = {
    object: e.object,
    field: `${p.field} in the answer to ${p.writes} write(s) removing ${p.kept.join(', ')}`,
    value: `[${e.after.join(', ')}]${p.unchanged ? '; resourceVersion unchanged: nothing was stored' : ''}`,
  };
  const w = webhookOf(p);
  if (!w) return [answered];
  return [
    answered,
    {
      object: `mutatingwebhookconfiguration/${w.configuration}`,
      field: `webhooks[${w.name}]`,
      value: `rules reach UPDATE of ${typeOf(e.object) || e.object}; ${w.served}; ${w.alive}`,
    },
  ];
}

/** One finding for the entries that share a finalizer, field and who put it back. */
function findingOf(group: PutBackEntry[]): Finding {
  const first = group[0]!;
  const p = first.putBack;
  const kept = p.kept.join(', ');
  const who = whoPutBack(p);
  const on = group.length === 1 ? first.object : `${group.length} ${typeOf(first.object)} objects`;
  const basis = evidenceOf(first).map((x) => `${x.object} ${x.field}: ${x.value}`);
  return {
    id: 'finalizer-put-back',
    severity: 'error',
    summary: `${kept} on ${on} comes back: the server answered each write removing it with it still in ${p.field}; ${who}`,
    causeSummary: `${kept} comes back: the server answers each write removing it with it still in ${p.field}; ${who}`,
    cause: `put-back:${kept}|${typeOf(first.object)}|${p.field}|${whoKey(p)}`,
    ...(group.length > 1 ? { objects: group.length } : {}),
    evidence: group.slice(0, 5).flatMap(evidenceOf),
    basis,
    remedy: { commands: p.lookups, note: `Fix it there: ${p.remedy}.` },
    leaked: false,
  };
}

/** Whether a finding's forced fix is what was put back: it targets only objects (or the namespace) found put back. */
function undone(f: Finding, objects: ReadonlySet<string>, namespace: string): boolean {
  const targets = f.targets ?? [];
  return (
    targets.length > 0 &&
    targets.every((t) =>
      t.kind === 'object-finalizers'
        ? objects.has(objectLabel(t.resource, t.name))
        : t.kind === 'namespace-metadata-finalizers' && objects.has(`namespace/${namespace}`),
    )
  );
}

/**
 * The findings with what the audit's put-back entries add: their `finalizer-put-back` findings, and the remedy of each
 * finding whose forced fix was put back replaced by a pointer to them (its commands would remove the finalizer again).
 */
export function withPutBack(
  findings: readonly Finding[],
  audit: readonly AuditEntry[],
  namespace: string,
): Finding[] {
  const entries = audit.filter(isPutBack);
  if (entries.length === 0) return [...findings];
  const groups = new Map<string, PutBackEntry[]>();
  for (const e of entries) {
    const key = `${e.field}\u0000${e.putBack.kept.join(',')}\u0000${typeOf(e.object)}\u0000${whoKey(e.putBack)}`;
    const known = groups.get(key) ?? [];
    if (!known.some((k) => k.object === e.object)) known.push(e);
    groups.set(key, known);
  }
  const metadata = new Set(entries.filter((e) => e.field === 'metadata.finalizers').map((e) => e.object));
  const rest = findings
    .filter((f) => f.id !== 'finalizer-put-back')
    .map((f) =>
      undone(f, metadata, namespace)
        ? {
            ...f,
            remedy: {
              commands: [],
              note: `Removing it again is undone the same way: see finalizer-put-back, and fix what puts it back first.`,
            },
          }
        : f,
    );
  return [...[...groups.values()].map(findingOf), ...rest];
}
