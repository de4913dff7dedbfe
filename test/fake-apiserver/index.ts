/** The fake Kubernetes API server for integration tests. */
export { FakeCluster } from './cluster.js';
export type { FakeClusterOptions, StartedCluster } from './cluster.js';
export type { RequestRecord } from './http.js';
export type { DenyRule } from './admission.js';
export type { OutsideGrant } from './access-review.js';
export type { AdmissionPolicy } from './policies.js';
export { CLIENT_USER } from './admission.js';
export { DEFAULT_TIMING } from './controller.js';
export type {
  ControllerTiming,
  Gvr,
  KObj,
  KubeVersion,
  NamespaceCondition,
  NsObj,
  ObjectMeta,
} from './types.js';
export * from './scenarios.js';
export * from './hard-cases.js';
export { FAST, head, raw, sleep, statusOf, waitFor, watch } from './testkit.js';
export type { Loose, RawOptions, RawResponse, WatchStream } from './testkit.js';
export { silentServer } from './silent.js';
export { HEALTHY_CONDITIONS } from './conditions.js';
export { applicationBody, kustomizationBody, GITOPS_TYPES } from './gitops.js';
export type { GitOpsFlavour } from './gitops.js';
