/** The namespace controller's five deletion conditions, parsed into what each says and what it names. Pure. */
import type { Condition } from '../model/cluster.js';
import type { ParsedConditions } from '../model/findings.js';

/** The five condition types the namespace controller writes, in the order it writes them. */
export const NAMESPACE_CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

type KnownType = (typeof NAMESPACE_CONDITION_TYPES)[number];

/** A parser fills its part of ParsedConditions and says whether the whole message was understood. */
type Parser = (out: ParsedConditions, raw: string) => boolean;

const PARSERS: Record<KnownType, Parser> = {
  NamespaceDeletionDiscoveryFailure: (out, raw) => {
    const failing = failingGroupVersions(raw);
    out.discoveryFailure = { failing: failing.list, raw };
    return failing.complete;
  },
  NamespaceDeletionGroupVersionParsingFailure: (out, raw) => {
    out.groupVersionParsingFailure = { raw };
    return true;
  },
  NamespaceDeletionContentFailure: (out, raw) => {
    const errors = contentErrors(raw);
    out.contentFailure = { errors: errors.list, raw };
    return errors.complete;
  },
  NamespaceContentRemaining: (out, raw) => {
    const items = scanList(listPart(raw, RESOURCE_PREFIXES), /(.+?) has (\d+) resource instances?(?:, |$)/y);
    const counts = items.list.map(([name, n]) => ({ ...splitResource(name), count: n }));
    out.contentRemaining = { counts, raw };
    return items.complete;
  },
  NamespaceFinalizersRemaining: (out, raw) => {
    const items = scanList(listPart(raw, FINALIZER_PREFIXES), /(.+?) in (\d+) resource instances?(?:, |$)/y);
    out.finalizersRemaining = { counts: items.list.map(([finalizer, count]) => ({ finalizer, count })), raw };
    return items.complete;
  },
};

const RESOURCE_PREFIXES = ['Some resources are remaining: '];
// The second prefix is the pre-2019 wording (reason SomeFinalizerRemain).
const FINALIZER_PREFIXES = [
  'Some content in the namespace has finalizers remaining: ',
  'Some finalizers are remaining: ',
];

/**
 * Parses the namespace conditions: failing ones (status True) become structured data; unknown types, other
 * statuses and messages not fully understood are also kept verbatim in `unparsed`.
 */
export function parseConditions(conditions: readonly Condition[]): ParsedConditions {
  const out: ParsedConditions = { unparsed: [] };
  for (const c of conditions) {
    const type = c.type;
    if (isKnown(type) && c.status === 'False') continue;
    const understood =
      isKnown(type) &&
      c.status === 'True' &&
      !alreadyParsed(out, type) &&
      PARSERS[type](out, c.message ?? '');
    if (!understood) out.unparsed.push(c);
  }
  return out;
}

function isKnown(type: string): type is KnownType {
  return (NAMESPACE_CONDITION_TYPES as readonly string[]).includes(type);
}

function alreadyParsed(out: ParsedConditions, type: KnownType): boolean {
  const field = {
    NamespaceDeletionDiscoveryFailure: out.discoveryFailure,
    NamespaceDeletionGroupVersionParsingFailure: out.groupVersionParsingFailure,
    NamespaceDeletionContentFailure: out.contentFailure,
    NamespaceContentRemaining: out.contentRemaining,
    NamespaceFinalizersRemaining: out.finalizersRemaining,
  }[type];
  return field !== undefined;
}

/** The list after a known prefix; without one, the text after the first `: ` (or all of it). */
function listPart(raw: string, prefixes: string[]): string {
  const prefix = prefixes.find((p) => raw.startsWith(p));
  if (prefix) return raw.slice(prefix.length);
  const colon = raw.indexOf(': ');
  return colon >= 0 && !/ resource instances?/.test(raw.slice(0, colon)) ? raw.slice(colon + 2) : raw;
}

/** Reads `<name> <verb> <n> resource instances` items one after another; stops at the first item it cannot read. */
function scanList(list: string, item: RegExp): { list: [string, number][]; complete: boolean } {
  const found: [string, number][] = [];
  item.lastIndex = 0;
  while (item.lastIndex < list.length) {
    const m = item.exec(list);
    if (!m) return { list: found, complete: false };
    found.push([m[1] ?? '', Number(m[2])]);
  }
  return { list: found, complete: found.length > 0 };
}

/** `pods.` → pods in the core group; `kialis.kiali.io` → kialis in kiali.io. Resource names hold no dots. */
function splitResource(name: string): { resource: string; group: string } {
  const dot = name.indexOf('.');
  return dot < 0
    ? { resource: name, group: '' }
    : { resource: name.slice(0, dot), group: name.slice(dot + 1) };
}

const GROUP_VERSION = /(?:^|, )((?:[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?\/)?v\d+(?:(?:alpha|beta)\d+)?): /g;

/** Group-versions named in `unable to retrieve the complete list of server APIs: <gv>: <err>[, …]`. */
function failingGroupVersions(raw: string): { list: string[]; complete: boolean } {
  const marker = 'unable to retrieve the complete list of server APIs: ';
  const at = raw.indexOf(marker);
  const tail = at >= 0 ? raw.slice(at + marker.length) : raw;
  const list = [...new Set([...tail.matchAll(GROUP_VERSION)].map((m) => m[1] ?? ''))];
  const declared = /, (\d+) failing: /.exec(raw);
  const complete = list.length > 0 && (!declared || Number(declared[1]) === list.length);
  return { list, complete };
}

/** Errors in `Failed to delete all resource types, <n> remaining: <err>` or `…: [e1, e2]`. */
function contentErrors(raw: string): { list: string[]; complete: boolean } {
  const m = /^Failed to delete all resource types, (\d+) remaining: ([\s\S]*)$/.exec(raw);
  if (!m) return { list: [raw], complete: false };
  const n = Number(m[1]);
  const rest = m[2] ?? '';
  if (n <= 1) return { list: [rest], complete: n === 1 };
  const inner = rest.startsWith('[') && rest.endsWith(']') ? rest.slice(1, -1) : rest;
  const parts: string[] = [];
  for (const piece of inner.split(', ')) {
    // A GroupVersionResource prints as `apps/v1, Resource=deployments`: that comma is not a separator.
    if (piece.startsWith('Resource=') && parts.length > 0) parts[parts.length - 1] += `, ${piece}`;
    else parts.push(piece);
  }
  return parts.length === n ? { list: parts, complete: true } : { list: [rest], complete: false };
}
