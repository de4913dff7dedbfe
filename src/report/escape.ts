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

/** Cluster text for a markdown table cell or paragraph: HTML and markdown metacharacters escaped, one line, bounded. */
export function md(text: string, max = MAX_TEXT): string {
  return truncate(oneLine(text), max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\\`*_[\]{}()#+!|~]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/::/g, ':&#8203;:');
}

/** Cluster text inside HTML (`<code>`, `<pre>`): line breaks kept, everything else escaped like `md`. */
export function html(text: string, max = 4000): string {
  return truncate(text, max)
    .split('\n')
    .map((line) => md(line, Number.MAX_SAFE_INTEGER))
    .join('\n');
}
