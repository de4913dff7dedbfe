/** Matching a finalizer to workloads by name: the product named in its domain against names, images and args. Pure. */
import type { WorkloadState } from './types.js';

/** Product names to look for in workloads, strongest first. */
export interface Tokens {
  primary: string[];
  secondary: string[];
}

// Domain labels that say nothing about which product a finalizer belongs to.
const GENERIC = new Set(
  'io com org net dev sh cloud ai app co k8s x-k8s kubernetes operator operators controller controllers api apis www github cluster resources protection cleanup'.split(
    ' ',
  ),
);

/** Words that mark a workload (or a leftover) as a controller. */
export const CONTROLLER_WORDS = /operator|controller|manager/;

/** Product names to look for: the label before the TLD of the finalizer's domain and of each group first. */
export function ownerTokens(finalizer: string, groups: readonly string[]): Tokens {
  const slash = finalizer.indexOf('/');
  const domains = [slash >= 0 ? finalizer.slice(0, slash) : finalizer, ...groups];
  const primary = new Set<string>();
  const secondary = new Set<string>();
  for (const domain of domains) {
    const labels = domain.toLowerCase().split('.');
    labels.forEach((label, i) => (i === labels.length - 2 ? primary : secondary).add(label));
  }
  const useful = (t: string): boolean => t.length >= 3 && !GENERIC.has(t) && !t.includes('finalizer');
  const p = [...primary].filter(useful);
  return { primary: p, secondary: [...secondary].filter((t) => useful(t) && !p.includes(t)) };
}

/** Whether `text` mentions `token` as a word start (so `kiali` matches `quay.io/kiali/kiali-operator`). */
export function mentions(text: string, token: string): boolean {
  const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^a-z0-9])${escaped}`).test(text.toLowerCase());
}

/** How strongly a workload's names, images and args point at the finalizer's product (0 = not at all). */
export function nameScore(w: WorkloadState, t: Tokens, finalizer: string): number {
  const inName = (tok: string): boolean => mentions(w.name, tok) || mentions(w.namespace, tok);
  const inHints = (tok: string): boolean => w.hints.some((h) => mentions(h, tok));
  let total = 0;
  for (const tok of t.primary) total += (inName(tok) ? 2 : 0) + (inHints(tok) ? 2 : 0);
  for (const tok of t.secondary) total += (inName(tok) ? 1 : 0) + (inHints(tok) ? 1 : 0);
  if (total === 0) return 0;
  if (w.hints.some((h) => h.includes(finalizer))) total += 3;
  if (CONTROLLER_WORDS.test(w.name)) total += 1;
  return total;
}
