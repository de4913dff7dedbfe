/**
 * The names a cluster's report carries into the merge's outputs, summary and comment — the cluster's name, context
 * and server, each target's namespace name, the time it finished — checked before any of them is used: a report is
 * written by another job, and a name a shell would run is refused, never passed on. Pure.
 */
import { clusterNameProblem } from '../settings/cluster-name.js';
import { namespaceNameProblem } from '../settings/name-syntax.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A kubeconfig context may be longer than a cluster name (OpenShift's name the server and the user). */
const CONTEXT_MAX = 253;
/** `URL.host`: a host name or IPv4 address, or an IPv6 address in brackets, and an optional port. */
const SERVER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
/** An ISO time as the action writes it (`Date.toISOString()`). */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z$/;

/** What is wrong with `context.cluster`'s name, context and server, in words that never quote them. */
function clusterProblem(cluster: unknown): string | undefined {
  if (cluster === undefined) return undefined;
  if (!isObject(cluster)) return '"context.cluster" is not an object';
  const rules: [key: string, problem: (v: string) => string | undefined][] = [
    ['name', (v) => clusterNameProblem(v)],
    ['context', (v) => clusterNameProblem(v, CONTEXT_MAX)],
    ['server', (v) => (SERVER.test(v) ? undefined : 'it is not a host and port')],
  ];
  for (const [key, problem] of rules) {
    const v = cluster[key];
    if (v === undefined) continue;
    const why = typeof v === 'string' ? problem(v) : 'it is not text';
    if (why) return `"context.cluster.${key}" cannot be used: ${why}`;
  }
  return undefined;
}

/** What is wrong with the names of a parsed report, or undefined when every one may be shown and passed on. */
export function namesProblem(report: Json): string | undefined {
  const cluster = clusterProblem(isObject(report.context) ? report.context.cluster : undefined);
  if (cluster) return cluster;
  if (typeof report.finishedAt !== 'string' || !ISO_TIME.test(report.finishedAt))
    return '"finishedAt" is not a time as the action writes it';
  const targets = Array.isArray(report.targets) ? report.targets : [];
  for (const [i, t] of targets.entries()) {
    const name = isObject(t) ? t.name : undefined;
    const why = typeof name === 'string' ? namespaceNameProblem(name) : 'it is not text';
    if (why) return `target ${i + 1}'s "name" is not a namespace name: ${why}`;
  }
  return undefined;
}
