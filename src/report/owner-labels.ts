/** The labels that tell who owns a namespace (its pull request, team, app), as short `key=value` strings. Pure. */

// Keys that usually name an owner; they come first.
const OWNER_KEY =
  /(^|[./-])(pr|pull|pull-request|team|owner|branch|author|created-by|repo|repository|instance|app)$/i;
// Set by Kubernetes on every namespace; it repeats the name.
const NOISE = new Set(['kubernetes.io/metadata.name']);

/** Equality terms of a label selector (`k=v`, `k==v`): every target shares them, so they identify no one. */
export function selectorTerms(selector: string | undefined): Set<string> {
  const terms = new Set<string>();
  for (const term of (selector ?? '').split(',')) {
    const m = /^\s*([^=!\s]+)\s*==?\s*(\S*)\s*$/.exec(term);
    if (m) terms.add(`${m[1]}=${m[2]}`);
  }
  return terms;
}

/** Up to `max` labels, owner-like keys first; the selector's own terms and Kubernetes' name label left out. */
export function ownerLabels(
  labels: Record<string, string> | undefined,
  selector: string | undefined,
  max = 3,
): string[] {
  const shared = selectorTerms(selector);
  const pairs = Object.entries(labels ?? {})
    .filter(([k, v]) => !NOISE.has(k) && !shared.has(`${k}=${v}`))
    .sort(([a], [b]) => Number(!OWNER_KEY.test(a)) - Number(!OWNER_KEY.test(b)) || (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`);
  return pairs.length > max ? [...pairs.slice(0, max), `+${pairs.length - max} more`] : pairs;
}
