/** The Node.js the command line needs: its bundle uses what Node 24 has (zlib's zstd among others). Pure. */

import { shellCommand } from '../diagnosis/index.js';

/** The oldest major version of Node.js the bundle runs on (package.json `engines`). */
export const MIN_NODE_MAJOR = 24;

/**
 * A message for a Node.js too old to run the bundle, or undefined when `version` (`v20.20.2`) will do; with the
 * script and its arguments, the command that runs the same with Node 24 fetched by npx, nothing installed.
 */
export function tooOldNode(
  version: string,
  script?: string,
  args: readonly string[] = [],
): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (Number.isFinite(major) && major >= MIN_NODE_MAJOR) return undefined;
  const said = `namespace-teardown needs Node.js ${MIN_NODE_MAJOR} or newer; this is Node.js ${version}.`;
  if (!script) return `${said} Run it with Node.js ${MIN_NODE_MAJOR} or newer.`;
  const again = shellCommand(script, ...args);
  return `${said} Run it with Node.js ${MIN_NODE_MAJOR} or newer, e.g. without installing it:\n  npx -y node@${MIN_NODE_MAJOR} ${again}`;
}
