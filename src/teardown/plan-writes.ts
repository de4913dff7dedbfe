/**
 * Plan mode: every write the run sends through the port (each a dry run: the adapter adds `dryRun=All`) recorded
 * with the server's answer, and who refused it when the answer says so.
 */
import { parseDenials, objectLabel } from '../diagnosis/index.js';
import { KubeError, readsOf, type Kube } from '../kube/port.js';
import type { ApiResource } from '../model/cluster.js';
import type { PlannedWrite, Refuser } from '../model/plan.js';

type Res = Pick<ApiResource, 'group' | 'resource'>;

/** Who refused a write, from the answer's code and message (a webhook or policy named, RBAC's words). Pure. */
export function refuserOf(code: number, message: string): Refuser {
  const denial = parseDenials(message)[0];
  if (denial?.via === 'webhook') return { by: 'webhook', name: denial.webhook };
  if (denial) return { by: 'policy', name: denial.policy };
  const failing = /failed calling webhook "([^"]+)"/.exec(message);
  if (failing) return { by: 'webhook', name: failing[1] };
  // The authorizer's words: `User "…" cannot delete resource "namespaces" in API group "" …`.
  if (code === 403 && / cannot [a-z]+ resource /.test(message)) return { by: 'rbac' };
  return { by: 'server' };
}

/** The record of one write, before its answer. */
type Asked = Pick<PlannedWrite, 'verb' | 'object' | 'namespace'>;

/** The writes of one run in plan mode, in the order they were sent. */
export class PlannedWrites {
  readonly writes: PlannedWrite[] = [];

  /** `kube` whose every write is recorded with its answer; reads pass through. */
  wrap(kube: Kube): Kube {
    const obj = (res: Res, namespace: string | undefined, name: string, verb: Asked['verb']): Asked => ({
      verb,
      object: objectLabel(res, name),
      ...(namespace ? { namespace } : {}),
    });
    const ns = (name: string, verb: Asked['verb']): Asked => ({ verb, object: `namespaces/${name}` });
    const pods = { group: '', resource: 'pods' };
    return {
      ...readsOf(kube),
      deleteNamespace: (name, o) => this.sent(ns(name, 'delete'), () => kube.deleteNamespace(name, o)),
      patchFinalizers: (res, namespace, name, guard, f) =>
        this.sent(obj(res, namespace, name, 'patch'), () =>
          kube.patchFinalizers(res, namespace, name, guard, f),
        ),
      patchSpec: (res, namespace, name, guard, spec) =>
        this.sent(obj(res, namespace, name, 'patch'), () =>
          kube.patchSpec(res, namespace, name, guard, spec),
        ),
      deleteObject: (res, namespace, name, guard) =>
        this.sent(obj(res, namespace, name, 'delete'), () => kube.deleteObject(res, namespace, name, guard)),
      deletePod: (namespace, name, uid) =>
        this.sent(obj(pods, namespace, name, 'delete'), () => kube.deletePod(namespace, name, uid)),
      finalizeNamespace: (name, guard, f) =>
        this.sent(ns(`${name}/finalize`, 'update'), () => kube.finalizeNamespace(name, guard, f)),
    };
  }

  /** The answer to the namespace DELETE of `name`, when one was sent. */
  deleteOf(name: string): PlannedWrite | undefined {
    return this.writes.find((w) => w.verb === 'delete' && w.object === `namespaces/${name}`);
  }

  /** Send, and record what the server answered; a write refused before it was sent (the guard) is not recorded. */
  private async sent<T>(asked: Asked, send: () => Promise<T>): Promise<T> {
    try {
      const answer = await send();
      this.writes.push({ ...asked, answer: answer === 'gone' ? 'gone' : 'accepted' });
      return answer;
    } catch (error) {
      // Code 0: refused before it was sent (the write guard, a cancel), or no answer came (the network).
      if (error instanceof KubeError && error.code > 0) {
        this.writes.push({
          ...asked,
          answer: 'refused',
          code: error.code,
          ...(error.reason ? { reason: error.reason } : {}),
          message: error.message,
          refusedBy: refuserOf(error.code, error.message),
        });
      }
      throw error;
    }
  }
}

/** The refusals the check fails for: every refused write but a 409 (the object changed since it was read). */
export function admissionRefusals(writes: readonly PlannedWrite[]): PlannedWrite[] {
  return writes.filter((w) => w.answer === 'refused' && w.code !== 409);
}
