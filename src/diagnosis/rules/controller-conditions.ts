/** Rule: what the namespace controller itself says in its conditions, told as it says it. Pure. */
import { formatSeconds } from '../../shared/duration.js';
import { NAMESPACE_CONDITION_TYPES } from '../conditions.js';
import { secondsBetween } from '../refs.js';
import { shellCommand } from '../shell.js';
import type { Evidence, Finding, ParsedConditions, Severity } from '../../model/findings.js';
import type { Snapshot } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'controller-conditions';

// Past this, a namespace without conditions means the namespace controller is not acting on it.
const SILENT_CONTROLLER_SECONDS = 120;

/** What the namespace controller itself says, condition by condition, with any text it could not parse. */
export function controllerConditions(s: Snapshot, parsed: ParsedConditions): Finding[] {
  const ns = s.namespace;
  const known = NAMESPACE_CONDITION_TYPES as readonly string[];
  const evidence: Evidence[] = ns.conditions
    .filter((c) => !(known.includes(c.type) && c.status === 'False'))
    .map((c) => ({
      object: `namespace/${ns.name}`,
      field: `status.conditions[${c.type}]${parsed.unparsed.includes(c) ? ' (not fully parsed)' : ''}`,
      value: `${c.status} ${c.reason ?? ''}: ${c.message ?? ''}`,
    }));
  const parts = summaryParts(parsed);
  let severity: Severity = severityOf(parsed);
  let note = ownWords(s.readErrors);
  const age = secondsBetween(ns.deletionTimestamp, s.takenAt);
  if (ns.conditions.length === 0) {
    parts.push('the namespace controller has written no condition yet');
    if (age !== undefined && age > SILENT_CONTROLLER_SECONDS) {
      severity = 'warning';
      note = `Deleted ${formatSeconds(age)} ago without conditions: is kube-controller-manager running?`;
    }
  }
  if (!ns.deletionTimestamp) parts.push('the namespace is not being deleted (no deletionTimestamp)');
  if (parts.length === 0) parts.push('no failing condition');
  return [
    {
      id: ID,
      severity,
      cause: `controller-conditions:${parts.join('; ').split(ns.name).join('\u0001')}`,
      summary: `Namespace controller on ${ns.name}: ${parts.join('; ')}`,
      evidence,
      remedy: { commands: [shellCommand('kubectl', 'get', 'namespace', ns.name, '-o', 'yaml')], note },
      leaked: false,
      generic: true,
    },
  ];
}

/**
 * What the controller's words leave to the other findings: the culprits this run read, and when it could not read
 * some types, that a culprit among them is unknown.
 */
function ownWords(unread: Snapshot['readErrors']): string {
  if (unread.length === 0)
    return 'These are the namespace controller’s own words; the other findings name the culprits.';
  const more = unread.length > 1 ? ` and ${unread.length - 1} more` : '';
  return (
    `These are the namespace controller’s own words. This run could not read ${unread[0]!.what}${more}: a culprit ` +
    'there, and whether anything will release it, is unknown to it; the other findings name only what it read.'
  );
}

function severityOf(p: ParsedConditions): Severity {
  if (p.discoveryFailure || p.groupVersionParsingFailure || p.contentFailure) return 'error';
  if (p.contentRemaining || p.finalizersRemaining || p.unparsed.some((c) => c.status === 'True'))
    return 'warning';
  return 'notice';
}

function summaryParts(p: ParsedConditions): string[] {
  const parts: string[] = [];
  if (p.discoveryFailure) {
    parts.push(`discovery failing for ${p.discoveryFailure.failing.join(', ') || 'some groups'}`);
  }
  if (p.groupVersionParsingFailure) parts.push('group-version parsing failed');
  if (p.contentFailure) parts.push(`${p.contentFailure.errors.length} delete error(s)`);
  if (p.contentRemaining) {
    const list = p.contentRemaining.counts.map(
      (c) => `${c.count} ${c.group ? `${c.resource}.${c.group}` : c.resource}`,
    );
    parts.push(`remaining: ${list.join(', ') || 'some resources'}`);
  }
  if (p.finalizersRemaining) {
    const list = p.finalizersRemaining.counts.map((c) => `${c.finalizer} on ${c.count}`);
    parts.push(`finalizers remaining: ${list.join(', ') || 'some'}`);
  }
  const unparsed = p.unparsed.filter((c) => c.status !== 'False').length;
  if (unparsed > 0) parts.push(`${unparsed} condition(s) not fully understood (text kept verbatim)`);
  return parts;
}
