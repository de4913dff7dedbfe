/** The summary read the way GitHub reads it (GFM: tables, autolinks, raw HTML), and its structure checked. */
import MarkdownIt from 'markdown-it';

/** GitHub-flavoured markdown: tables, strikethrough, raw HTML and the autolinking of bare URLs and e-mails. */
export const gfm = new MarkdownIt({ html: true, linkify: true });

type Token = ReturnType<typeof gfm.parse>[number];

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})\s*$/;

/** Cells of a source table row, split on `|` not escaped with a backslash. */
function cellCount(line: string): number {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).length;
}

function walk(tokens: Token[], fn: (t: Token) => void): void {
  for (const t of tokens) {
    fn(t);
    if (t.children) walk(t.children, fn);
  }
}

/**
 * Everything wrong with the structure of `markdown` as GitHub would render it: table rows with another cell
 * count than their header or that are not table lines (a paragraph swallowed by a table), fences that never
 * close, `<details>` left open, and links other than `allowedLinks` (cluster text must never become a link).
 */
export function gfmProblems(markdown: string, allowedLinks: (string | RegExp)[] = []): string[] {
  const problems: string[] = [];
  const lines = markdown.split('\n');
  const tokens = gfm.parse(markdown, {});
  tokens.forEach((t) => {
    if (t.type === 'table_open' && t.map) {
      const [from, to] = t.map;
      const header = cellCount(lines[from]!);
      for (let n = from; n < to; n++) {
        const line = lines[n]!;
        if (!line.trimStart().startsWith('|'))
          problems.push(`line ${n + 1} became a table row: ${line.slice(0, 80)}`);
        else if (cellCount(line) !== header)
          problems.push(`line ${n + 1} has ${cellCount(line)} cells, the header ${header}`);
      }
    }
    if (t.type === 'fence' && t.map) {
      const last = lines[t.map[1] - 1] ?? '';
      const m = FENCE_LINE.exec(last);
      if (t.map[1] - t.map[0] < 2 || !m || m[1]![0] !== t.markup[0] || m[1]!.length < t.markup.length)
        problems.push(`fence opened at line ${t.map[0] + 1} never closes`);
    }
  });
  walk(tokens, (t) => {
    const href = t.type === 'link_open' ? String(t.attrGet('href')) : undefined;
    const allowed = (h: string): boolean =>
      allowedLinks.some((a) => (typeof a === 'string' ? a === h : a.test(h)));
    if (href !== undefined && !allowed(href)) problems.push(`a link to ${href}`);
    if ((t.type === 'html_inline' || t.type === 'html_block') && /<(a|img)\b/i.test(t.content))
      problems.push(`raw HTML that links: ${t.content.slice(0, 80)}`);
  });
  const opened = (markdown.match(/<details>/g) ?? []).length;
  const closed = (markdown.match(/<\/details>/g) ?? []).length;
  if (opened !== closed) problems.push(`${opened} <details> but ${closed} </details>`);
  return problems;
}
