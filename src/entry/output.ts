/** What the CLI prints on stdout: plain text for a person at a terminal, markdown or JSON for a program. */
import { ConfigError } from '../shared/errors.js';
import { renderSummary } from '../report/markdown.js';
import { reportJsonText } from '../report/json.js';
import { renderText } from '../report/text.js';
import type { RunReport } from '../model/run.js';

/** The values `--output` allows. */
export const OUTPUTS = ['text', 'markdown', 'json'] as const;
export type OutputFormat = (typeof OUTPUTS)[number];

/** How stdout is rendered: the format, and for text the width and whether to colour. */
export interface OutputChoice {
  format: OutputFormat;
  width: number;
  color: boolean;
  /** `--show-labels`: the text's table gets a LABELS column. */
  showLabels?: boolean;
}

/** Width of a text rendering that goes to a pipe or file: `COLUMNS` when set, else a terminal's usual 80. */
const PIPE_WIDTH = 80;

/**
 * `--output` as given, else text, on a terminal or not (as kubectl prints the same text to a pipe); markdown, the
 * job summary, only when asked for. Colour only on a terminal, never with `NO_COLOR` set to anything (no-color.org) or `TERM=dumb`: decided here
 * rather than left to `util.styleText`, whose own check is of process.stdout and is skipped when told to.
 */
export function chooseOutput(
  flag: string | undefined,
  stdout: { isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv,
): OutputChoice {
  if (flag !== undefined && !(OUTPUTS as readonly string[]).includes(flag))
    throw new ConfigError(`--output (-o) is "${flag}"; allowed: ${OUTPUTS.join(', ')}.`, 'output');
  const tty = stdout.isTTY === true;
  const format = (flag as OutputFormat | undefined) ?? 'text';
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return { format, width: terminalWidth(stdout, env), color: tty && !noColor && env.TERM !== 'dumb' };
}

/** The width text is laid out to: the terminal's, else `COLUMNS` when set, else 80 (a pipe or a file). */
export function terminalWidth(stdout: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number {
  const columns = Number(env.COLUMNS);
  if (stdout.isTTY === true && stdout.columns) return stdout.columns;
  return Number.isInteger(columns) && columns > 0 ? columns : PIPE_WIDTH;
}

/** The report as the chosen format renders it. */
export function renderOutput(report: RunReport, choice: OutputChoice, reportPath?: string): string {
  if (choice.format === 'json') return `${reportJsonText(report)}\n`;
  if (choice.format === 'markdown') return renderSummary(report, reportPath);
  return renderText(report, { ...choice, reportPath });
}
