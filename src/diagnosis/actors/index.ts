/** The actor model: who can release, recreate or refuse each blocker, the evidence that ties it, and its liveness. */
export type { Actor, Actors, ActorRole, Liveness, LiveState, Reach } from './actor-types.js';
export { builtInActor, componentLiveness, type Component } from './control-plane.js';
export { describeWorkload, heldBy, releasers, workloadLiveness, type Holders } from './workloads.js';
export { releaseVerdict, type ReleaseVerdict } from './verdict.js';
export { forbiddenUser, lostSightNote } from './own-identity.js';
