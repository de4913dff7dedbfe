/** Commands as a person pastes them: the fix chosen, the kubeconfig context added, lines wrapped. Pure. */
import { shellQuote } from '../diagnosis/index.js';
import type { Finding } from '../model/findings.js';

/** Code lines wider than this would scroll sideways in GitHub's summary panel. */
export const COMMAND_WIDTH = 78;

// Commands that only look: they help a person check, they do not unblock anything.
const LOOK = /^kubectl (get|describe|wait|logs|auth can-i)\b/;

/** Whether a command only looks (it helps a person check; it unblocks nothing): a read piped into a write does not. */
export const isLookup = (command: string): boolean => LOOK.test(command) && !command.includes(' | ');

/** The command that fixes the finding (not a look-up), or undefined when it offers none. */
export function fixCommand(f: Finding): string | undefined {
  return f.remedy.commands.find((c) => !isLookup(c));
}

/** Every `kubectl` of the command gets `--context NAME`, so it goes to the cluster the run talked to. */
export function withContext(command: string, context: string | undefined): string {
  if (!context) return command;
  return command.replace(
    /(^|[|;&(]\s*|\bdo\s+|\bxargs(?: -\w+)*\s+|\n\s*)kubectl(?= )/g,
    `$1kubectl --context ${shellQuote(context)}`,
  );
}

const LOOP_HEAD = /^for ns in (.+); do$/;

/** A loop over namespaces: `for ns in a b; do`, the commands (with `"$ns"`), `done`, one a line. */
export function loopScript(namespaces: readonly string[], commands: readonly string[]): string {
  return [`for ns in ${namespaces.join(' ')}; do`, ...commands, 'done'].join('\n');
}

/** A script on one line (a log line or an annotation): a loop's commands joined with `;`. */
export function oneLineScript(script: string): string {
  const lines = script.split('\n');
  if (!LOOP_HEAD.test(lines[0] ?? '')) return lines.join('; ');
  return `${lines[0]} ${lines.slice(1, -1).join('; ')}; done`;
}

/** Shell words of a command, quotes kept; a `|` alone is a word. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (const ch of command) {
    if (quote) {
      word += ch;
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') {
      word += ch;
      quote = ch;
    } else if (ch === ' ') {
      if (word) words.push(word);
      word = '';
    } else word += ch;
  }
  if (word) words.push(word);
  return words;
}

/**
 * A JSON value on lines of at most `width` where it can be: an object's members packed greedily, a member that is
 * itself too wide on a line of its own. JSON allows a line break between any two tokens, so it parses the same.
 */
function jsonLines(value: unknown, indent: string, width: number, tail: string): string[] {
  const whole = `${indent}${JSON.stringify(value)}${tail}`;
  if (whole.length <= width || value === null || typeof value !== 'object' || Array.isArray(value))
    return [whole];
  const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  const lines: string[] = [];
  let line = `${indent}{`;
  members.forEach((m, i) => {
    const piece = `${m}${i === members.length - 1 ? `}${tail}` : ','}`;
    if (line.trim() !== '{' && line.length + piece.length > width) {
      lines.push(line);
      line = `${indent} `;
    }
    line += piece;
  });
  return [...lines, line];
}

/** A single-quoted JSON array, one element (a wide one over a few lines) a line; other words unchanged. */
function splitJsonWord(word: string, indent: string, width: number): string {
  if (!/^'\[.*\]'$/.test(word)) return word;
  let items: unknown[];
  try {
    items = JSON.parse(word.slice(1, -1)) as unknown[];
  } catch {
    return word;
  }
  const lines = items.flatMap((item, i) => jsonLines(item, indent, width, i < items.length - 1 ? ',' : ''));
  return `'[\n${lines.join('\n')}\n${indent}]'`;
}

/**
 * The command wrapped at `width` with ` \` continuations (and `|` at the start of a line), so no line needs
 * horizontal scrolling, its ` \` included; a wide JSON patch gets one operation per line. Pastes as the same
 * command.
 */
export function wrapCommand(command: string, width = COMMAND_WIDTH, indent = ''): string {
  const lines: string[] = [];
  let line = indent;
  const cont = `${indent}  `;
  const long = indent.length + command.length > width;
  // A line that goes on ends with ` \`: two columns fewer for its words.
  const room = width - 2;
  const words = shellWords(command);
  words.forEach((raw, i) => {
    const word = cont.length + raw.length > room ? splitJsonWord(raw, cont, width) : raw;
    const first = word.split('\n')[0]!;
    const pipe = long && word === '|';
    // The last word needs no room for a ` \` after it, nor a word whose first line ends inside its quotes.
    const limit = i === words.length - 1 || word.includes('\n') ? width : room;
    if (line.trim() !== '' && (pipe || line.length + 1 + first.length > limit)) {
      lines.push(`${line} \\`);
      line = cont;
    }
    line += (line.trim() === '' ? '' : ' ') + word;
    const parts = line.split('\n');
    if (parts.length > 1) {
      lines.push(...parts.slice(0, -1));
      line = parts.at(-1)!;
    }
  });
  lines.push(line);
  return lines.join('\n');
}

/** A script of commands (one a line, or a `for ns in …; do …; done` loop) laid out for a code block. */
export function layoutScript(script: string, width = COMMAND_WIDTH): string {
  const lines = script.split('\n');
  const head = LOOP_HEAD.exec(lines[0] ?? '');
  if (head && lines.at(-1) === 'done') {
    const body = lines.slice(1, -1).map((c) => wrapCommand(c, width, '  '));
    return [wrapCommand(`for ns in ${head[1]!}; do`, width), ...body, 'done'].join('\n');
  }
  return lines
    .map((command) => {
      // A comment is never wrapped: a ` \` inside a comment does not continue it, the next line would run.
      if (command.startsWith('#')) return command;
      const loop = /^for ns in (.+?); do (.+); done$/.exec(command);
      if (!loop) return wrapCommand(command, width);
      const first = wrapCommand(`for ns in ${loop[1]!}; do`, width);
      return `${first}\n${wrapCommand(loop[2]!, width, '  ')}\ndone`;
    })
    .join('\n\n');
}
