/** The Node.js the command line needs: its bundle uses what Node 24 has (zlib's zstd among others). Pure. */

/** The oldest major version of Node.js the bundle runs on (package.json `engines`). */
export const MIN_NODE_MAJOR = 24;

/** A message for a Node.js too old to run the bundle, or undefined when `version` (`v20.20.2`) will do. */
export function tooOldNode(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (Number.isFinite(major) && major >= MIN_NODE_MAJOR) return undefined;
  return `namespace-teardown needs Node.js ${MIN_NODE_MAJOR} or newer; this is Node.js ${version}. Run it with Node.js ${MIN_NODE_MAJOR} or newer.`;
}
