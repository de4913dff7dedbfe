/** The help texts laid out for the terminal's width (a flag's help in a column, words never broken); exit statuses. Pure. */
import { cells, wrap } from '../report/columns.js';
import { allFlags, CLI_FLAGS, type Flag } from './flags.js';
import type { RunReport } from '../model/run.js';

/** The narrowest help laid out; a narrower terminal wraps it itself. */
const MIN_WIDTH = 40;
/** Where the help of a flag starts, when the line is wide enough for two columns. */
const HELP_COLUMN = 30;
/** Below this width a flag's help goes under it, indented, instead of beside it. */
const TWO_COLUMNS_FROM = 72;
const UNDER_INDENT = 8;

/** A block of help: a paragraph, rows of two columns (a flag and its help), or lines kept as they are. */
export type HelpBlock =
  | { text: string; indent?: number }
  | { rows: [string, string][]; column?: number; title?: string }
  | { usage: string[]; lead: string };

/** Words wrapped within `width`, the first line after `first`, the others indented by `indent`. */
function hanging(text: string, width: number, first: string, indent: number): string[] {
  const lines = wrap(text, width - Math.max(cells(first), indent));
  return lines.map((l, i) => (i === 0 ? first : ' '.repeat(indent)) + l);
}

/** `left` and its help: side by side from `column`, or the help under it when the line is narrow or `left` long. */
function row(left: string, help: string, width: number, column: number): string[] {
  // Narrow: no room kept for a short alias that a flag does not have.
  if (width < TWO_COLUMNS_FROM)
    return [left.replace(/^ {6}--/, '  --'), ...hanging(help, width, ' '.repeat(UNDER_INDENT), UNDER_INDENT)];
  if (cells(left) + 2 <= column) return hanging(help, width, left.padEnd(column), column);
  return [left, ...hanging(help, width, ' '.repeat(column), column)];
}

/**
 * A usage line after `first`, its continuation indented under its first argument; a `[...]` group is one word, so
 * an optional flag is never torn from its value.
 */
function usageLine(line: string, width: number, first: string): string[] {
  const words = line.match(/\[[^\]]*\]|\S+/g) ?? [];
  const longest = Math.max(...words.map(cells));
  // Under the first argument, unless the longest word would not fit there on a narrow terminal.
  const indent = ' '.repeat(Math.max(2, Math.min(cells(first) + cells(words[0] ?? '') + 1, width - longest)));
  const lines: string[] = [];
  let current = first;
  for (const word of words) {
    const start = current === first || current === indent;
    if (!start && cells(current) + 1 + cells(word) > width) {
      lines.push(current);
      current = indent;
    }
    current += current === first || current === indent ? word : ` ${word}`;
  }
  return [...lines, current];
}

function usage(lines: string[], lead: string, width: number): string[] {
  return lines.flatMap((line, i) => usageLine(line, width, i === 0 ? lead : ' '.repeat(cells(lead))));
}

/** One line of a message wrapped within `width`, its continuations under its text (after `  - ` for a list item). */
export function wrapIndented(line: string, width: number): string[] {
  const lead = /^\s*(?:- )?/.exec(line)![0];
  return hanging(line.slice(lead.length), Math.max(MIN_WIDTH, width), lead, cells(lead));
}

/** The blocks as lines no wider than `width` (at least 40), an empty line between blocks. */
export function layoutHelp(blocks: HelpBlock[], width: number): string {
  const w = Math.max(MIN_WIDTH, Math.floor(width));
  const out = blocks.map((b) => {
    if ('rows' in b)
      return [
        ...(b.title ? hanging(b.title, w, '', 0) : []),
        ...b.rows.flatMap(([l, h]) => row(l, h, w, b.column ?? HELP_COLUMN)),
      ];
    if ('usage' in b) return usage(b.usage, b.lead, w);
    const pad = ' '.repeat(b.indent ?? 0);
    return b.text.split('\n').flatMap((p) => hanging(p, w, pad, pad.length));
  });
  return out.map((lines) => lines.join('\n')).join('\n\n');
}

/** `  -n, --namespaces LIST`: a flag as the help lists it. */
function flagLeft(name: string, spec: Flag): string {
  return `  ${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.arg ? ` ${spec.arg}` : ''}`;
}

/** What the command does, and its forms. */
const USAGE = [
  'namespace-teardown -n a,b --target-label KEY [flags]',
  'namespace-teardown -l key=value --target-label KEY [flags]',
  'namespace-teardown --scope all-terminating [-l key=value] [flags]',
  'namespace-teardown --sweep plan|on --sweep-pr-label KEY [--sweep-repository owner/name] [flags]',
  'namespace-teardown --context a,b,c [flags]',
  'namespace-teardown merge PATH...',
];

/** The command line's exit statuses; a signal's are 128 + its number (SIGNAL_EXIT in cli.ts). */
export const EXIT = { passed: 0, failed: 1, badInput: 2, unreachable: 3 } as const;

/** The exit statuses, documented here, in the README and in the guide alike. */
export const EXIT_STATUS: [string, string][] = [
  [`  ${EXIT.passed}`, 'the check passes'],
  [
    `  ${EXIT.failed}`,
    'the check fails (a target stuck, leaked, refused or in error), or the run failed as a whole',
  ],
  [`  ${EXIT.badInput}`, 'bad input: every problem in one message, before any cluster call'],
  [
    `  ${EXIT.unreachable}`,
    'the check fails and the cluster was never reached: no request got an answer (connection refused, DNS, TLS, a timeout)',
  ],
  ['  130, 143', 'stopped by Ctrl-C (SIGINT) or SIGTERM, after printing the state so far'],
];

/** Whether a run never reached its cluster: it sent requests and not one got an answer, of any status. */
export function unreached(report: Pick<RunReport, 'cost'>): boolean {
  return report.cost?.answers === 0 && report.cost.requests > 0;
}

/** The exit status of a finished run that no signal stopped. */
export function exitStatus(report: Pick<RunReport, 'cost' | 'failures'>): number {
  if (report.failures.length === 0) return EXIT.passed;
  return unreached(report) ? EXIT.unreachable : EXIT.failed;
}

/** `--help`: every flag from the table with its help, laid out within `width` columns. */
export function helpText(width: number): string {
  const own = Object.keys(CLI_FLAGS).length;
  const flags = allFlags().map(([n, s]): [string, string] => [flagLeft(n, s), s.help]);
  return layoutHelp(
    [
      { text: 'namespace-teardown: delete namespaces, wait until they are gone, report what blocks them.' },
      { usage: USAGE, lead: 'Usage: ' },
      {
        text:
          'A target without the label --target-label names is refused, never deleted or forced. --context a,b,c ' +
          "runs in several clusters and prints one merged answer; merge answers from many clusters' reports " +
          '(merge --help).',
      },
      { title: "Flags (named like the action's inputs):", rows: flags.slice(0, -own) },
      { title: 'Flags of the command line:', rows: flags.slice(-own) },
      {
        text:
          'Environment: GITHUB_TOKEN (the sweep, --pr-comment), GITHUB_REPOSITORY, GITHUB_API_URL, ' +
          'GITHUB_GRAPHQL_URL, KUBECONFIG, NO_COLOR, COLUMNS.\n' +
          'Ctrl-C stops the run and prints the state so far (marked cancelled); a second Ctrl-C quits at once.',
      },
      { title: 'Exit status:', rows: EXIT_STATUS, column: 13 },
    ],
    width,
  );
}
