/** Plain-text layout for a terminal: cluster text made inert, words wrapped, columns aligned to a width. Pure. */
import { visible } from './escape.js';

// East Asian wide and fullwidth characters and emoji take two cells of a terminal.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
// Combining marks and zero-width characters take none.
const ZERO = /^(?:\p{Mn}|\p{Me}|\u200b|\u200c|\u200d|\ufe0f)$/u;

/** How many terminal cells `text` takes. */
export function cells(text: string): number {
  let n = 0;
  for (const ch of text) n += ZERO.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return n;
}

/** The longest head of `word` that fits in `width` cells (at least one character). */
function headOf(word: string, width: number): string {
  let head = '';
  for (const ch of word) {
    if (head && cells(head + ch) > width) break;
    head += ch;
  }
  return head;
}

/** Words wrapped to lines of at most `width` cells; a word longer than a line is broken. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of visible(text).split(' ').filter(Boolean)) {
    if (line && cells(line) + 1 + cells(word) <= width) {
      line += ` ${word}`;
      continue;
    }
    if (line) lines.push(line);
    while (cells(word) > width) {
      const head = headOf(word, width);
      lines.push(head);
      word = word.slice(head.length);
    }
    line = word;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/** `text` followed by spaces up to `width` cells. */
export function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - cells(text)));
}

/** A table cell: its text and how to paint it (colour is added after the layout measured the plain text). */
export interface Cell {
  text: string;
  paint?: (text: string) => string;
}

/** `text` within `width` cells: whole when it fits, else its head and `…`. */
export function cut(text: string, width: number): string {
  const plain = visible(text);
  if (cells(plain) <= width) return plain;
  return `${width > 1 ? headOf(plain, width - 1) : ''}…`;
}

/** How a table is laid out: each cell wrapped within its column, or each row on one line, cells cut to fit. */
export interface TableOptions {
  /** One line per row, as `kubectl get` prints (a line per row for `awk`); `cut` is told each row it shortened. */
  oneLine?: boolean;
  cut?: (row: number) => void;
  /** With `oneLine`, the last column whole even past the width, as kubectl prints its LABELS column. */
  lastWhole?: boolean;
}

/**
 * Rows aligned in columns two spaces apart within `width` cells: each column as wide as its widest cell, the
 * first ones capped so the last keeps at least a third of the line, every cell wrapped within its column (or, with
 * `oneLine`, cut to it).
 */
export function table(
  header: string[],
  rows: Cell[][],
  width: number,
  head = (t: string) => t,
  opts: TableOptions = {},
): string[] {
  const all: Cell[][] = [header.map((text) => ({ text, paint: head })), ...rows];
  const n = header.length;
  const natural = [...Array(n).keys()].map((i) =>
    Math.max(...all.map((r) => cells(visible(r[i]?.text ?? '')))),
  );
  const gaps = 2 * (n - 1);
  const firstCap = Math.max(6, Math.floor((width - gaps) / 3));
  // The column that takes what is left: the last, or with `lastWhole` the one before it (the last keeps its width).
  const flex = opts.oneLine && opts.lastWhole && n > 1 ? n - 2 : n - 1;
  const widths = natural.map((w, i) => (i < flex ? Math.min(w, firstCap) : w));
  const used = widths.reduce((a, b, i) => (i === flex ? a : a + b), 0) + gaps;
  widths[flex] = Math.max(flex === n - 1 ? 1 : 3, Math.min(natural[flex]!, width - used));
  const out: string[] = [];
  all.forEach((row, r) => {
    const wrapped = widths.map((w, i) => {
      const text = row[i]?.text ?? '';
      if (!opts.oneLine) return wrap(text, w);
      if (opts.lastWhole && i === n - 1) return [visible(text)];
      const shown = cut(text, w);
      if (r > 0 && shown !== visible(text)) opts.cut?.(r - 1);
      return [shown];
    });
    const height = Math.max(...wrapped.map((w) => w.length));
    for (let l = 0; l < height; l++) {
      const parts = wrapped.map((lines, i) => {
        const text = lines[l] ?? '';
        const padded = i === n - 1 ? text : pad(text, widths[i]!);
        const paint = row[i]?.paint;
        return paint && text ? paint(text) + padded.slice(text.length) : padded;
      });
      out.push(parts.join('  ').trimEnd());
    }
  });
  return out;
}
