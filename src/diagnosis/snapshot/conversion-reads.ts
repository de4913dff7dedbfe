/** Types whose objects cannot be read because their CRD's conversion webhook fails: the CRD, its webhook, the objects. */
import type { Discovery } from '../../kube/port.js';
import { readBacking } from './cluster-reads.js';
import { PATHS, READ_AREA } from './read-paths.js';
import { toConversionDefinition } from './raw.js';
import type { Reads } from './reader.js';
import type { ConversionState } from '../types.js';
import type { Leftover, ParsedConditions } from '../../model/findings.js';

// apiextensions-apiserver's webhook converter: `conversion webhook for <group>/<version>, Kind=<Kind> failed: <err>`,
// naming the version the object is stored at.
const CONVERSION = /conversion webhook for ([a-z0-9][-a-z0-9.]*)\/([a-z0-9]+), Kind=([A-Za-z0-9]+) failed: /;

/** The conversion failure named in one error text, if any. */
export function parseConversionError(
  text: string,
): { group: string; storedAt: string; kind: string; error: string } | undefined {
  const m = CONVERSION.exec(text);
  if (!m) return undefined;
  return { group: m[1]!, storedAt: m[2]!, kind: m[3]!, error: text.slice(m.index).trim() };
}

/** `gadgets.conv.example.com` out of a scan error's `what` (`list gadgets.conv.example.com`). */
const listed = (what: string): string | undefined =>
  what.startsWith(`${READ_AREA.scan} `) ? what.slice(READ_AREA.scan.length + 1) : undefined;

/** Every conversion failure the scan met or the controller reports, one per CRD, with the type's resource name. */
function failures(
  errors: readonly { what: string; error: string }[],
  parsed: ParsedConditions,
  discovery: Discovery | undefined,
): ConversionState[] {
  const found = new Map<string, ConversionState>();
  const add = (text: string, resourceHint: string | undefined): void => {
    const c = parseConversionError(text);
    if (!c) return;
    const type = discovery?.resources.find((r) => r.group === c.group && r.kind === c.kind);
    const resource = resourceHint?.split('.')[0] ?? type?.resource;
    if (!resource) return;
    const crd = `${resource}.${c.group}`;
    if (found.has(crd)) return;
    found.set(crd, {
      crd,
      group: c.group,
      resource,
      kind: c.kind,
      storedAt: c.storedAt,
      requested: type?.version,
      error: c.error,
    });
  };
  for (const e of errors) add(e.error, listed(e.what));
  for (const e of parsed.contentFailure?.errors ?? []) add(e, undefined);
  return [...found.values()].sort((a, b) => (a.crd < b.crd ? -1 : 1));
}

/** The CRD, its webhook's Service and the objects listed at the stored version (when that version is served). */
async function complete(
  reads: Reads,
  namespace: string,
  c: ConversionState,
): Promise<{ state: ConversionState; leftovers: Leftover[] }> {
  const what = `${READ_AREA.conversions} ${c.crd}`;
  const raw = await reads.call(what, (r) => r.getRaw(PATHS.crd(c.crd)));
  const definition = raw === undefined ? undefined : toConversionDefinition(raw);
  const svc = definition?.service;
  const backing = svc
    ? await readBacking(reads, `${what} webhook service`, svc.namespace, svc.name)
    : undefined;
  const state: ConversionState = {
    ...c,
    ...(definition ? { definition } : {}),
    ...(backing ? { backing } : {}),
  };
  const servable = definition ? definition.served.includes(c.storedAt) : true;
  if (!servable || c.storedAt === c.requested) return { state, leftovers: [] };
  const before = reads.errors.length;
  const resource = { group: c.group, version: c.storedAt, resource: c.resource };
  const items = await reads.listMetadata(`${what} at ${c.storedAt}`, resource, namespace);
  if (reads.errors.length > before) return { state, leftovers: [] };
  const type = { ...resource, kind: c.kind };
  return {
    state: { ...state, listed: items.length },
    leftovers: items.map((meta) => ({ resource: type, meta, pinned: true })),
  };
}

/**
 * For each type whose list (the scan's or the controller's) failed in its conversion webhook: read the CRD and the
 * webhook's Service, and list the objects at the version they are stored at, where that needs no conversion.
 */
export async function readConversions(
  reads: Reads,
  namespace: string,
  parsed: ParsedConditions,
  discovery: Discovery | undefined,
): Promise<{ conversions: ConversionState[]; leftovers: Leftover[] }> {
  const found = failures(reads.errors, parsed, discovery);
  const done = await Promise.all(found.map((c) => complete(reads, namespace, c)));
  return { conversions: done.map((d) => d.state), leftovers: done.flatMap((d) => d.leftovers) };
}
