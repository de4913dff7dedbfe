/**
 * The JSON report as text, in pieces: the text of `JSON.stringify(report, null, 2)`, made one target at a time, so a
 * run with thousands of targets never holds the whole report as one string. Pure.
 */
import type { RunReport } from '../model/run.js';
import { visible } from './escape.js';

const indent = (text: string, by: string): string => text.replace(/\n/g, `\n${by}`);

/**
 * The pieces of `JSON.stringify(report, null, 2)`, in order, with every character `visible` escapes written as its
 * JSON escape (`\u009b`, `\u202e`: JSON.stringify leaves them raw); joined, they parse back to the report. With `by`,
 * every line after the first is indented by it too (the report nested in another document).
 */
export function* reportJson(report: RunReport, by = ''): Generator<string> {
  for (const piece of rawPieces(report, by)) yield visible(piece, true);
}

/** The pieces of `JSON.stringify(report, null, 2)`, in order, lines after the first indented by `by`. */
function* rawPieces(report: RunReport, by: string): Generator<string> {
  const entries = Object.entries(report).filter(([, value]) => JSON.stringify(value) !== undefined);
  if (entries.length === 0) {
    yield '{}';
    return;
  }
  yield '{';
  for (const [i, [key, value]] of entries.entries()) {
    const comma = i < entries.length - 1 ? ',' : '';
    const name = `\n${by}  ${JSON.stringify(key)}: `;
    if (key !== 'targets' || !Array.isArray(value) || value.length === 0) {
      yield `${name}${indent(JSON.stringify(value, null, 2), `${by}  `)}${comma}`;
      continue;
    }
    yield `${name}[`;
    for (const [j, target] of (value as unknown[]).entries()) {
      // An array writes null where JSON.stringify leaves a value out.
      const text = JSON.stringify(target, null, 2) ?? 'null';
      yield `\n${by}    ${indent(text, `${by}    `)}${j < value.length - 1 ? ',' : ''}`;
    }
    yield `\n${by}  ]${comma}`;
  }
  yield `\n${by}}`;
}

/** The whole JSON report as one text, as the CLI prints and writes it. */
export function reportJsonText(report: RunReport): string {
  return [...reportJson(report)].join('');
}
