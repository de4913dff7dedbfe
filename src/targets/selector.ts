/** Client-side label-selector matching, so a list answer is checked, not trusted. Pure. */
import { EQ_REQ, EXISTS_REQ, SET_REQ, splitRequirements } from '../settings/name-syntax.js';

type Labels = Readonly<Record<string, string>>;

function requirementMatches(req: string, labels: Labels): boolean {
  const set = SET_REQ.exec(req);
  if (set) {
    const values = set[3]!.split(',').map((v) => v.trim());
    const has = Object.hasOwn(labels, set[1]!) && values.includes(labels[set[1]!]!);
    return set[2] === 'in' ? has : !has;
  }
  const eq = EQ_REQ.exec(req);
  if (eq) {
    const value = Object.hasOwn(labels, eq[1]!) ? labels[eq[1]!] : undefined;
    return eq[2] === '!=' ? value !== eq[3] : value === eq[3];
  }
  const exists = EXISTS_REQ.exec(req);
  if (exists) return Object.hasOwn(labels, exists[2]!) !== (exists[1] === '!');
  return false;
}

/** Whether `labels` satisfy every requirement of a selector that `labelSelectorProblem` accepted. */
export function selectorMatches(selector: string, labels: Labels): boolean {
  return splitRequirements(selector.trim()).every((req) => requirementMatches(req, labels));
}
