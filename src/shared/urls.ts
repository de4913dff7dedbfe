/** Web addresses taken from outside (GitHub's answers, the runner's environment), parsed before any use. Pure. */

/**
 * `text` parsed as an http(s) URL without credentials in it, and on `origin` when one is given (its scheme, host and
 * port); undefined when it is anything else.
 */
export function webUrl(text: string | undefined, origin?: string): URL | undefined {
  if (!text || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password) return undefined;
  if (origin !== undefined && (!URL.canParse(origin) || new URL(origin).origin !== url.origin))
    return undefined;
  return url;
}
