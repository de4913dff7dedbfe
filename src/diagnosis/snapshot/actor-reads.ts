/** What the actor model reads from the cluster, once per run where it is cluster-wide; read-only, failures recorded. */
import { PATHS, READ_AREA } from './read-paths.js';
import { toLease } from './raw.js';
import type { Reads } from './reader.js';
import { servedVersion } from './served.js';
import type { ApiResource } from '../../model/cluster.js';
import type { ControlPlaneState, GitOpsOwner, PolicyBindingState } from '../types.js';
import {
  toApplication,
  toApplicationSet,
  toComponentPod,
  toHelmRelease,
  toKustomization,
  toPolicyBinding,
} from './actor-raw.js';

const COMPONENTS = ['kube-controller-manager', 'cloud-controller-manager'];
const ADMISSION = 'admissionregistration.k8s.io';

/**
 * Kubernetes' own controllers: the Leases in kube-system, and — only when a component has no Lease there (leader
 * election off, a managed control plane) — the pods labelled with its component name.
 */
export function readControlPlane(reads: Reads): Promise<ControlPlaneState> {
  return reads.shared('control-plane', async (r) => {
    const raw = await r.listRaw(READ_AREA.controlPlane, PATHS.kubeSystemLeases, true);
    const leases = (raw ?? []).map(toLease);
    if (COMPONENTS.every((c) => leases.some((l) => l.name === c))) return { leases };
    const pods = await r.listRaw(`${READ_AREA.controlPlane} pods`, PATHS.componentPods, true);
    return { leases, ...(pods ? { pods: pods.map(toComponentPod) } : {}) };
  });
}

/** The GitOps owner types this run looks for, with how each is read. */
const GITOPS: { group: string; resource: string; parse: (o: unknown) => GitOpsOwner }[] = [
  { group: 'kustomize.toolkit.fluxcd.io', resource: 'kustomizations', parse: toKustomization },
  { group: 'helm.toolkit.fluxcd.io', resource: 'helmreleases', parse: toHelmRelease },
  { group: 'argoproj.io', resource: 'applications', parse: toApplication },
  { group: 'argoproj.io', resource: 'applicationsets', parse: toApplicationSet },
];

/**
 * Every GitOps owner object of the cluster (Flux Kustomizations and HelmReleases, Argo CD Applications and
 * ApplicationSets), once per run: discovery of their groups alone, then one list of each type the server serves.
 */
export function readGitOps(reads: Reads): Promise<GitOpsOwner[]> {
  return reads.shared('gitops', async (r) => {
    const groups = [...new Set(GITOPS.map((g) => g.group))];
    const found = await r.call(`${READ_AREA.gitops} discovery`, (k) => k.discover({ core: false, groups }));
    if (!found) return [];
    for (const f of found.failed.filter((x) => groups.some((g) => x.groupVersion.startsWith(`${g}/`))))
      r.errors.push({ what: `${READ_AREA.gitops} discovery ${f.groupVersion}`, error: f.error });
    const served = GITOPS.flatMap((g) => {
      const res = found.resources.find((x) => x.group === g.group && x.resource === g.resource);
      return res?.verbs.includes('list') ? [{ ...g, version: res.version }] : [];
    });
    const lists = await r.map(served, async (g) => {
      const path = `/apis/${g.group}/${g.version}/${g.resource}`;
      const items = await r.listRaw(`${READ_AREA.gitops} ${g.resource}.${g.group}`, path, true);
      return (items ?? []).map(g.parse);
    });
    return lists.flat();
  });
}

/** Core kinds a policy parameter usually is, and their resource: others are found through discovery. */
const PARAM_RESOURCES: Record<string, string> = { ConfigMap: 'configmaps', Secret: 'secrets' };

/**
 * The ValidatingAdmissionPolicyBindings named by denials the policy could not evaluate: the binding's paramRef, the
 * policy's paramKind, and whether the parameter object it names exists (a name looked up where the binding says, or
 * — without a namespace — in the namespace of the object being deleted, as the API server does).
 */
export async function readPolicyBindings(
  reads: Reads,
  named: readonly { binding: string; policy: string }[],
  namespace: string,
  resources: readonly ApiResource[],
): Promise<PolicyBindingState[]> {
  const served = await servedVersion(reads, ADMISSION, 'validatingadmissionpolicybindings');
  return reads.map(named, async ({ binding, policy }): Promise<PolicyBindingState> => {
    const what = `${READ_AREA.policies} ${binding}`;
    const version = served.version;
    if (!version)
      return {
        binding,
        policy,
        unread: served.error ?? 'this server serves no ValidatingAdmissionPolicyBindings',
      };
    const [b, p] = await Promise.all([
      reads.call(what, (r) => r.getRaw(PATHS.policyBinding(version, binding))),
      reads.call(`${READ_AREA.policies} ${policy}`, (r) => r.getRaw(PATHS.policy(version, policy))),
    ]);
    const unread = reads.errors.find((e) => e.what === what)?.error;
    if (b === undefined) return { binding, policy, unread: unread ?? 'the binding was not found' };
    const state = toPolicyBinding(binding, policy, b, p);
    const paramPath = pathOfParam(state, namespace, resources);
    if (!paramPath) return state;
    const found = await reads.call(`${what} parameter`, async (r) => ({ body: await r.getRaw(paramPath) }));
    return found ? { ...state, paramFound: found.body !== undefined } : state;
  });
}

function pathOfParam(
  s: PolicyBindingState,
  namespace: string,
  resources: readonly ApiResource[],
): string | undefined {
  const name = s.paramRef?.name;
  const [apiVersion = '', kind = ''] = (s.paramKind ?? '').split(' ');
  if (!name || !kind) return undefined;
  const ns = s.paramRef?.namespace || namespace;
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const resource =
    (group === '' ? PARAM_RESOURCES[kind] : undefined) ??
    resources.find((r) => r.group === group && r.kind === kind)?.resource;
  if (!resource) return undefined;
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  return `${base}/namespaces/${encodeURIComponent(ns)}/${resource}/${encodeURIComponent(name)}`;
}

/** Every ValidatingAdmissionPolicyBinding with its paramRef (none on a server without admission policies). */
export async function readAllPolicyBindings(reads: Reads): Promise<PolicyBindingState[]> {
  const { version } = await servedVersion(reads, ADMISSION, 'validatingadmissionpolicybindings');
  if (!version) return [];
  const raw = await reads.listRaw(READ_AREA.policies, PATHS.policyBindings(version), true);
  return (raw ?? []).map((b) => {
    const m =
      b !== null && typeof b === 'object' ? (b as { metadata?: { name?: unknown } }).metadata : undefined;
    return toPolicyBinding(typeof m?.name === 'string' ? m.name : '', '', b, undefined);
  });
}
