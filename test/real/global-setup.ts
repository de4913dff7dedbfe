/** Jest globalSetup of the real-server tier: one control plane for the whole run, stopped on any exit. */
import { rmSync } from 'node:fs';
import {
  findAssets,
  loadState,
  saveState,
  startControlPlane,
  STATE_ENV,
  ASSETS_ENV,
} from './control-plane.js';
import { signal } from './processes.js';

// Synchronous, because 'exit' handlers cannot wait: SIGTERM to exactly the recorded PIDs.
function terminateRecorded(file: string): void {
  try {
    const state = loadState(file);
    for (const p of state.processes) signal(p.pid, p.spec.command);
    rmSync(state.dir, { recursive: true, force: true });
  } catch {
    // No state file: nothing was started, or the teardown already removed it.
  }
}

function stopOnExit(file: string): void {
  process.once('exit', () => terminateRecorded(file));
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.once(sig, () => {
      terminateRecorded(file);
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
}

/** Start the control plane and publish its state file to the test files through `REALKUBE_STATE`. */
export default async function globalSetup(): Promise<void> {
  const assets = findAssets();
  if (!assets)
    throw new Error(
      `No control plane: set ${ASSETS_ENV} to a directory with etcd, kube-apiserver and kube-controller-manager, or provide ../shared/realkube/install.sh`,
    );
  const started = Date.now();
  const state = await startControlPlane(assets);
  const file = saveState(state);
  process.env[STATE_ENV] = file;
  stopOnExit(file);
  process.stderr.write(
    `\ncontrol plane ${state.url} ready in ${Date.now() - started} ms (logs in ${state.dir})\n`,
  );
}
