/** Lists of names kept short where people read them (log lines, annotations): the first few, then a count. Pure. */

/** `a, b, c`, or the first `keep` and `and N more`. */
export function listNames(names: readonly string[], keep: number): string {
  if (names.length <= keep) return names.join(', ');
  return `${names.slice(0, keep).join(', ')} and ${names.length - keep} more`;
}

/** A reason ending in a list of names (`2 namespace(s) still present: a, b`), the list kept to `keep` names. */
export function briefReason(reason: string, keep: number): string {
  const m = /^(.*?): ([^()]+?)( \(.*\))?$/.exec(reason);
  const names = m?.[2]?.split(', ') ?? [];
  if (!m || names.length <= keep) return reason;
  return `${m[1]}: ${listNames(names, keep)}${m[3] ?? ''}`;
}
