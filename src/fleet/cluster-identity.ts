/** Which cluster a run talked to, by name: the `cluster-name` input, else the context, else the server's host. Pure. */
import type { ClusterIdentity, RunContext, RunReport } from '../model/run.js';

/** The identity with its name: `given` (the `cluster-name` input), else the kubeconfig context, else the host. */
export function namedCluster(identity: ClusterIdentity, given: string | undefined): ClusterIdentity {
  const { context, server } = identity;
  const name = given ?? identity.name ?? context ?? server;
  return {
    ...(name !== undefined ? { name } : {}),
    ...(context ? { context } : {}),
    ...(server ? { server } : {}),
  };
}

/** The name a report goes by in a fleet (reports written before names existed: their context, else host). */
export function clusterNameOf(report: Pick<RunReport, 'context'>): string | undefined {
  const c = report.context?.cluster;
  return c?.name ?? c?.context ?? c?.server;
}

/** The context with the cluster's given name, before anything else about the cluster is known. */
export function namedContext(context: RunContext, given: string | undefined): RunContext {
  return given === undefined ? context : { ...context, cluster: { ...context.cluster, name: given } };
}
