/**
 * Making cluster-, plugin- and GitHub-supplied text safe for every sink: `visible` for all of them (log lines,
 * annotations, summary, JSON report, comment, CLI output), and on it markdown (`md`, `fence`, `html`), the log
 * (`safeLog`, `safeLines`) and links (`mdLink`). Pure.
 */
import { webUrl } from '../shared/urls.js';

const MAX_TEXT = 500;

/** Cut `text` to `max` characters, saying how much was cut. */
export function truncate(text: string, max = MAX_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… and ${text.length - max} more characters`;
}

/**
 * What no sink passes on raw: C0 controls and DEL; C1 controls (U+0080–U+009F: a terminal may take U+009B for CSI
 * and U+009D for OSC); the bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
 * U+202A–U+202E, U+2066–U+2069), which reorder what is shown; the line and paragraph separators U+2028, U+2029.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\u001b` for ESC: the same six characters a JSON string escapes it to, so JSON text stays valid and exact. */
const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` with nothing in it that a terminal, a log viewer or a renderer would act on: every character of UNSAFE
 * shown as its escape (ESC as `\u001b`, U+202E as `\u202e`). Line breaks and tabs become one space; with `lines`,
 * `\n` is kept (`\r\n` as `\n`) and tabs, `\v`, `\f` and `\r` become spaces. On JSON text with `lines` it is
 * lossless: JSON.parse reads back what was written.
 */
export function visible(text: string, lines = false): string {
  const spaced = lines
    ? text.replace(/\r\n/g, '\n').replace(/[\t\v\f\r]/g, ' ')
    : text.replace(/[\t\n\v\f\r\u0085\u2028\u2029]+/g, ' ');
  return spaced.replace(UNSAFE, (c) => (c === '\n' ? c : escaped(c)));
}

/** One line of plain text: control characters made visible, line breaks and tabs spaces. */
export function oneLine(text: string): string {
  return visible(text);
}

/**
 * Text that can never form a workflow command when printed: one line, and every `::` broken by a
 * zero-width space, so no line can start a `::command::` even after other text is stripped.
 */
export function safeLog(text: string): string {
  return breakCommands(oneLine(text));
}

/** Like `safeLog`, line breaks kept: for a message of several lines in the step log or on stderr. */
export function safeLines(text: string): string {
  return breakCommands(visible(text, true));
}

/**
 * Every `::` (and the runner's legacy `##[`) broken by a zero-width space, line breaks kept: no line of `text`
 * can start a workflow command.
 */
export function breakCommands(text: string): string {
  return text.replace(/::/g, ':\u200b:').replace(/##\[/g, '#\u200b#[');
}

/**
 * Cluster text for a markdown table cell or paragraph: HTML and markdown metacharacters escaped, one line,
 * bounded. `:`, `@` and the dot of `www.` become character references too, so GitHub's autolinker finds no
 * URL, e-mail address or `www.` host to turn into a link, and no `::` is left to start a workflow command.
 */
export function md(text: string, max = MAX_TEXT): string {
  return truncate(oneLine(text), max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\\`*_[\]{}()#+!|~:@]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/(www)\./gi, '$1&#46;');
}

/**
 * A fenced code block whose fence is longer than any backtick run in `text`, so no content can close it; GitHub
 * shows a copy button on it and renders nothing inside as markup or a link. No Kubernetes name holds `::`, so
 * breaking it costs a real command nothing and keeps a printed summary from forming a workflow command.
 */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  const body = safeLines(text.replace(/\n+$/, ''));
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

/** Cluster text inside HTML (`<code>`, `<pre>`): line breaks kept, everything else escaped like `md`. */
export function html(text: string, max = 4000): string {
  return truncate(text, max)
    .split('\n')
    .map((line) => md(line, Number.MAX_SAFE_INTEGER))
    .join('\n');
}

/**
 * A markdown link to `url` when it parses as an http(s) URL on `origin` (that of the GitHub server, say), without
 * credentials; else `text` alone. The target is the parsed URL with every character that could end a link or start
 * markup percent-encoded, so no answer can break out of it (`encodeURI` keeps `)`).
 */
export function mdLink(text: string, url: string | undefined, origin: string | undefined): string {
  const parsed = origin === undefined ? undefined : webUrl(url, origin);
  if (!parsed) return text;
  const href = parsed.href.replace(
    /[()[\]<>"'`*_\\ |!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `[${text}](${href})`;
}
