/** Glob patterns for names: `*` matches any run of characters, `?` one character; nothing else is special. */

const ALLOWED = /^[A-Za-z0-9.\-_/*?]+$/;

/** Why a pattern is not a valid glob, or undefined when it is. */
export function globProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return 'it is empty';
  if (pattern.length > 253) return 'it is longer than 253 characters';
  if (!ALLOWED.test(pattern)) return 'only letters, digits, ".", "-", "_", "/", "*" and "?" are allowed';
  return undefined;
}

/** Compile a glob already checked by `globProblem` into an anchored RegExp. */
export function compileGlob(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\-]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/** The first pattern in `patterns` that matches `name`, if any. */
export function firstMatch(patterns: readonly string[], name: string): string | undefined {
  return patterns.find((p) => compileGlob(p).test(name));
}
