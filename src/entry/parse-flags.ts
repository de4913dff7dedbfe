/** The command line parsed by the flag table, every unknown or incomplete flag reported at once. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../shared/errors.js';
import type { Problems } from '../settings/naming.js';
import { allFlags } from './flags.js';

/** The flags given, by name: a string, the strings of a list flag, or true for a switch. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

function options(): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    allFlags().map(([name, spec]) => [
      name,
      {
        type: spec.kind === 'switch' ? ('boolean' as const) : ('string' as const),
        ...(spec.kind === 'list' ? { multiple: true } : {}),
        ...(spec.short ? { short: spec.short } : {}),
      },
    ]),
  );
}

/**
 * The flags of `argv`. Unknown flags, a flag without its value, a value given to a switch and stray arguments each
 * become a problem in `problems` (so one message lists them all); a list flag's values may also be comma-separated.
 */
export function parseFlags(argv: string[], problems: Problems): FlagValues {
  const known = new Map(allFlags());
  const { values, tokens } = parseArgs({ args: argv, options: options(), strict: false, tokens: true });
  const fail = (message: string): void => void problems.errors.push(new ConfigError(message));
  for (const t of tokens) {
    if (t.kind === 'positional') fail(`"${t.value}" is not a flag: every input is given as --name VALUE.`);
    if (t.kind !== 'option') continue;
    const spec = known.get(t.name);
    const shown = t.rawName;
    if (!spec) fail(`${shown} is not a flag${suggestion(t.name)}.`);
    else if (spec.kind === 'switch' && t.value !== undefined)
      fail(`${shown} takes no value; it is a switch.`);
    else if (spec.kind !== 'switch' && typeof t.value !== 'string')
      fail(`${shown} needs a value: ${shown} ${spec.arg}.`);
  }
  const out: FlagValues = {};
  for (const [name, value] of Object.entries(values)) {
    const spec = known.get(name);
    if (!spec) continue;
    if (spec.kind === 'list' && Array.isArray(value))
      out[name] = value.filter((v): v is string => typeof v === 'string');
    else if (spec.kind === 'value' && typeof value === 'string') out[name] = value;
    else if (spec.kind === 'switch' && value === true) out[name] = true;
  }
  return out;
}

/** ` (did you mean --x?)` for a misspelt flag whose name is one of ours with a letter or two off. */
function suggestion(name: string): string {
  const close = allFlags()
    .map(([n]) => n)
    .find((n) => distance(n, name) <= Math.max(1, Math.floor(n.length / 6)));
  return close ? ` (did you mean --${close}?)` : '';
}

/** Levenshtein distance, for the suggestion only. */
function distance(a: string, b: string): number {
  let row = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
