/** A summary built within a byte budget: what fits is kept, what does not is counted and named. Pure. */
import { md } from './escape.js';

/** The line that says what was cut to stay within `limit` bytes, and where everything is. */
export function cutLine(cut: readonly string[], limit: number, reportPath?: string): string {
  const where = reportPath ? ` Everything is in the JSON report: <code>${md(reportPath, 300)}</code>.` : '';
  return `> ✂️ **Cut to keep the summary short (${Math.round(limit / 1000)} KB):** ${cut.join('; ')}.${where}`;
}

/** Adds text while it fits under the byte budget and counts what it had to leave out. */
export class Budget {
  private used = 0;
  readonly parts: string[] = [];
  readonly cut: string[] = [];
  constructor(private readonly limit: number) {}
  /** Whether `text` still fits. */
  fits(text: string): boolean {
    return this.used + Buffer.byteLength(text) + 2 <= this.limit;
  }
  /** Add `text` if it fits; false when it does not (the caller names what it left out). */
  add(text: string): boolean {
    if (!text) return true;
    if (!this.fits(text)) return false;
    this.used += Buffer.byteLength(text) + 2;
    this.parts.push(text);
    return true;
  }
  /**
   * A table row by row, at most `maxRows`; the rows that do not fit are counted. Only the rows kept are rendered
   * (a run with thousands of targets shows a few hundred).
   */
  table<T>(
    what: string,
    header: string[],
    items: readonly T[],
    row: (item: T) => string,
    maxRows: number,
    wrap?: [string, string],
  ): void {
    const head = [...(wrap ? [wrap[0], ''] : []), ...header].join('\n');
    let size = Buffer.byteLength(head) + Buffer.byteLength(wrap?.[1] ?? '') + 2;
    const kept: string[] = [];
    for (const item of items.slice(0, maxRows)) {
      const text = row(item);
      size += Buffer.byteLength(text) + 1;
      if (this.used + size + 2 > this.limit) break;
      kept.push(text);
    }
    if (items.length > kept.length) this.cut.push(`${items.length - kept.length} ${what}`);
    if (kept.length) this.add([head, ...kept, wrap?.[1] ?? ''].join('\n').trimEnd());
  }
}
