/** Whether an answer is about the pull request asked for: its number, and the number in its URL. Pure. */

/** What an answer says of which pull request it is. */
export interface PullIdentity {
  number?: unknown;
  url?: unknown;
}

/** The pull request number a URL points at (`…/pull/N`, http or https), or undefined when it points at none. */
function urlNumber(url: string): number | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const m = /\/pull\/([1-9]\d*)$/.exec(parsed.pathname);
  return m ? Number(m[1]) : undefined;
}

/**
 * Why the answer is not the pull request `asked` (its number differs or is absent, or its URL, when given, points
 * elsewhere); undefined when it is. Such an answer decides nothing: the pull request stays unknown.
 */
export function otherPull(asked: number, got: PullIdentity): string | undefined {
  const said = typeof got.number === 'number' ? `#${got.number}` : 'no number';
  if (got.number !== asked) return `GitHub answered with ${said} when asked for #${asked}`;
  if (got.url === undefined || got.url === null) return undefined;
  const inUrl = typeof got.url === 'string' ? urlNumber(got.url) : undefined;
  if (inUrl === asked) return undefined;
  const where = inUrl === undefined ? 'a URL that names no pull request' : `the URL of #${inUrl}`;
  return `GitHub answered #${asked} with ${where}`;
}
