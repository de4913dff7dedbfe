/** Plain words for what the namespace controller reports. Pure. */
import type { Condition } from '../model/cluster.js';

/** The failing conditions in plain words, or what the healthy ones say. */
export function conditionWords(conditions: Condition[]): string {
  const failing = conditions.filter((c) => c.status === 'True' && c.message);
  if (failing.length > 0) return failing.map((c) => c.message!).join('; ');
  return conditions.length > 0 ? 'no failure reported by the namespace controller' : '';
}
