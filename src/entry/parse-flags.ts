/** The command line parsed by the flag table, every unknown or incomplete flag reported at once; the help text. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../shared/errors.js';
import type { Problems } from '../settings/naming.js';
import { wrap } from '../report/columns.js';
import { allFlags, CLI_FLAGS, type Flag } from './flags.js';

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

const USAGE = `namespace-teardown: delete namespaces, wait until they are gone, report what blocks them.

Usage: namespace-teardown --namespaces a,b [--selector key=value] [flags]
       namespace-teardown --scope all-terminating [--selector key=value] [flags]
       namespace-teardown --sweep plan|on --sweep-pr-label KEY [--sweep-repository owner/name] [flags]
       namespace-teardown --context a,b,c [flags]   the same in several clusters, one merged answer
       namespace-teardown merge PATH...             one answer from many clusters' reports (merge --help)

Flags (named like the action's inputs):`;

const TAIL = `Environment: GITHUB_TOKEN (the sweep, --pr-comment), GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_GRAPHQL_URL,
KUBECONFIG, NO_COLOR.
Ctrl-C stops the run and prints the state so far (marked cancelled); a second Ctrl-C quits at once.
Exit status: 0 the check passes, 1 it fails, 2 bad input, 130 stopped by Ctrl-C (143 by SIGTERM).`;

/** Help lines wrap within 120 columns, the help of each flag in a column of its own. */
const HELP_COLUMN = 34;
const HELP_WIDTH = 120;

function helpLine(name: string, spec: Flag): string {
  const short = spec.short ? `-${spec.short}, ` : '    ';
  const left = `  ${short}--${name}${spec.arg ? ` ${spec.arg}` : ''}`;
  const help = wrap(spec.help, HELP_WIDTH - HELP_COLUMN).map((l) => ' '.repeat(HELP_COLUMN) + l);
  if (left.length < HELP_COLUMN) help[0] = left.padEnd(HELP_COLUMN) + help[0]!.trimStart();
  else help.unshift(left);
  return help.join('\n');
}

/** `--help`: every flag from the table, each with its line of help, within 120 columns. */
export function helpText(): string {
  const own = Object.keys(CLI_FLAGS).length;
  const flags = allFlags();
  const lines = flags.slice(0, -own).map(([n, s]) => helpLine(n, s));
  const cli = flags.slice(-own).map(([n, s]) => helpLine(n, s));
  return [USAGE, ...lines, '', 'Flags of the command line:', ...cli, '', TAIL].join('\n');
}
