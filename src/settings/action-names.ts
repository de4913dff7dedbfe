/** Input and output names, declared once; action.yml must declare exactly these (a test checks). */

export const Inputs = {
  namespaces: 'namespaces',
  selector: 'selector',
  scope: 'scope',
  kubeconfig: 'kubeconfig',
  context: 'context',
  clusterName: 'cluster-name',
  delete: 'delete',
  dryRun: 'dry-run',
  timeout: 'timeout',
  wait: 'wait',
  teardownOrder: 'teardown-order',
  customResourcesTimeout: 'custom-resources-timeout',
  protectedNamespaces: 'protected-namespaces',
  targetLabel: 'target-label',
  failOn: 'fail-on',
  force: 'force',
  forceAfter: 'force-after',
  forceFinalizers: 'force-finalizers',
  forceFinalizeNamespace: 'force-finalize-namespace',
  forceDeletePods: 'force-delete-pods',
  sweep: 'sweep',
  sweepPrLabel: 'sweep-pr-label',
  sweepClosedFor: 'sweep-closed-for',
  sweepMaxAge: 'sweep-max-age',
  sweepRepository: 'sweep-repository',
  keepLabel: 'keep-label',
  maxAge: 'max-age',
  commentCommand: 'comment-command',
  allowEvents: 'allow-events',
  gitopsOwners: 'gitops-owners',
  prComment: 'pr-comment',
  githubToken: 'github-token',
} as const;

export const Outputs = {
  result: 'result',
  deleted: 'deleted',
  stuck: 'stuck',
  forced: 'forced',
  refused: 'refused',
  report: 'report',
} as const;

/** The merge action's inputs (merge/action.yml), named like the teardown's where they mean the same. */
export const MergeInputs = {
  reports: 'reports',
  clusters: 'clusters',
  failOn: Inputs.failOn,
  prComment: Inputs.prComment,
  githubToken: Inputs.githubToken,
} as const;

/** The merge action's outputs. */
export const MergeOutputs = {
  result: Outputs.result,
  clusters: 'clusters',
  report: Outputs.report,
} as const;

export type InputName = (typeof Inputs)[keyof typeof Inputs];
export type OutputName = (typeof Outputs)[keyof typeof Outputs];
export type MergeOutputName = (typeof MergeOutputs)[keyof typeof MergeOutputs];
