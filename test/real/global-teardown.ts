/** Jest globalTeardown of the real-server tier: stop exactly the processes the setup (or a restart) recorded. */
import { loadState, STATE_ENV, stopControlPlane } from './control-plane.js';

/** Stop the control plane whose state file `REALKUBE_STATE` names, and remove its temp dir. */
export default async function globalTeardown(): Promise<void> {
  if (!process.env[STATE_ENV]) return;
  await stopControlPlane(loadState());
}
