/**
 * Which version of a resource the server serves, from discovery of its API group alone (once per run while fresh):
 * for the reads whose version changed across the servers this project supports — EndpointSlices (`discovery.k8s.io`
 * v1 from 1.21, v1beta1 on 1.20) and ValidatingAdmissionPolicies (v1 from 1.30, v1beta1 on 1.28–1.29). The other
 * reads of the snapshot name the one version every supported server serves (see read-paths.ts).
 */
import { READ_AREA } from './read-paths.js';
import type { Reads } from './reader.js';

/** The served version of `resource` in `group` (the group's preferred one that serves it); undefined when none does. */
export async function servedVersion(
  reads: Reads,
  group: string,
  resource: string,
): Promise<{ version?: string; error?: string }> {
  const found = await reads.shared(`served ${group}`, async (r) => {
    const before = r.errors.length;
    const d = await r.call(`${READ_AREA.discovery} ${group}`, (k) =>
      k.discover({ core: false, groups: [group] }),
    );
    return d
      ? { resources: d.resources, failed: d.failed }
      : { error: r.errors[before]?.error ?? 'no answer' };
  });
  if ('error' in found) return { error: found.error };
  const failed = found.failed.find((f) => f.groupVersion.startsWith(`${group}/`));
  const res = found.resources.find((x) => x.group === group && x.resource === resource);
  if (res) return { version: res.version };
  return failed ? { error: `discovery of ${failed.groupVersion} failed: ${failed.error}` } : {};
}
