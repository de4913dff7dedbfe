/** Reading one input: lists, booleans, durations, each error naming the input. Pure. */
import { parseDuration } from '../shared/duration.js';
import { ConfigError } from '../shared/errors.js';
import { ACTION_NAMING, type Naming } from './naming.js';

/** Reads one input by name; empty string when unset (like core.getInput). */
export type InputReader = (name: string) => string;

/** Split a list input on newlines, commas and spaces, dropping empties. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A boolean input: true or false in any of YAML's three spellings; empty = `fallback`. */
export function readBoolean(read: InputReader, name: string, fallback: boolean, n: Naming): boolean {
  const raw = read(name).trim();
  if (raw === '') return fallback;
  if (/^(true|True|TRUE)$/.test(raw)) return true;
  if (/^(false|False|FALSE)$/.test(raw)) return false;
  throw new ConfigError(`${n.input(name)} is "${raw}"; allowed: true or false.`, name);
}

/** A value out of a fixed list, its first the default; anything else is refused, naming the input and the list. */
export function readChoice<T extends string>(
  read: InputReader,
  name: string,
  allowed: readonly T[],
  n: Naming,
): T {
  const raw = read(name).trim() || allowed[0]!;
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(`${n.input(name)} is "${raw}"; allowed: ${allowed.join(', ')}.`, name);
  return raw as T;
}

/** The longest duration an input may give: longer than any job runs, far below what timers can hold. */
export const MAX_DURATION_MS = 24 * 3_600_000;

/** Parse a duration input, naming the input in the error. */
export function readDuration(
  read: InputReader,
  name: string,
  fallback: string,
  allowZero = false,
  n: Naming = ACTION_NAMING,
): number {
  const raw = read(name).trim() || fallback;
  const ms = parseDuration(raw);
  if (ms === undefined || (ms === 0 && !allowZero)) {
    throw new ConfigError(
      `${n.input(name)} is "${raw}", which is not a duration; use a number with a unit, e.g. 90s, 5m, 1h30m.`,
      name,
    );
  }
  if (ms > MAX_DURATION_MS) {
    throw new ConfigError(`${n.input(name)} is "${raw}"; at most 24h is allowed.`, name);
  }
  return ms;
}
