/** A terminal capture with SGR escape codes (tmux `capture-pane -e`) as HTML spans, text escaped. */

const COLOURS = ['#1f2328', '#ff7b72', '#3fb950', '#d29922', '#58a6ff', '#bc8cff', '#39c5cf', '#e6edf3'];

interface Pen {
  bold: boolean;
  dim: boolean;
  fg?: string;
}

const esc = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function apply(pen: Pen, codes: number[]): Pen {
  const next = { ...pen };
  for (const c of codes.length ? codes : [0]) {
    if (c === 0) Object.assign(next, { bold: false, dim: false, fg: undefined });
    else if (c === 1) next.bold = true;
    else if (c === 2) next.dim = true;
    else if (c === 22) Object.assign(next, { bold: false, dim: false });
    else if (c >= 30 && c <= 37) next.fg = COLOURS[c - 30];
    else if (c >= 90 && c <= 97) next.fg = COLOURS[c - 90];
    else if (c === 39) next.fg = undefined;
  }
  return next;
}

function open(pen: Pen): string {
  const style = [
    pen.bold ? 'font-weight:700' : '',
    pen.dim ? 'opacity:.62' : '',
    pen.fg ? `color:${pen.fg}` : '',
  ].filter(Boolean);
  return style.length ? `<span style="${style.join(';')}">` : '<span>';
}

/** HTML for the capture: every run of text in a span styled by the codes before it. */
export function ansiToHtml(capture: string): string {
  let pen: Pen = { bold: false, dim: false };
  let out = '';
  // eslint-disable-next-line no-control-regex
  for (const part of capture.split(/(\u001b\[[0-9;]*m)/)) {
    // eslint-disable-next-line no-control-regex
    const sgr = /^\u001b\[([0-9;]*)m$/.exec(part);
    if (sgr) pen = apply(pen, sgr[1]!.split(';').filter(Boolean).map(Number));
    else if (part) out += `${open(pen)}${esc(part)}</span>`;
  }
  return out;
}
