/** Making cluster-supplied text safe: in markdown, in the log, and in annotation messages. Pure. */

const MAX_TEXT = 500;

/** Cut `text` to `max` characters, saying how much was cut. */
export function truncate(text: string, max = MAX_TEXT): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… and ${text.length - max} more characters`;
}

/** One line of plain text: control characters and line breaks become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
}

/**
 * Text that can never form a workflow command when printed: one line, and every `::` broken by a
 * zero-width space, so no line can start a `::command::` even after other text is stripped.
 */
export function safeLog(text: string): string {
  return breakCommands(oneLine(text));
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
  // eslint-disable-next-line no-control-regex
  const body = breakCommands(text.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ').replace(/\n+$/, ''));
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

/** Cluster text inside HTML (`<code>`, `<pre>`): line breaks kept, everything else escaped like `md`. */
export function html(text: string, max = 4000): string {
  return truncate(text, max)
    .split('\n')
    .map((line) => md(line, Number.MAX_SAFE_INTEGER))
    .join('\n');
}
