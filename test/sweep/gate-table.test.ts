/**
 * The table of events in docs/lifecycle.md is the gate's own: every row is read against `GATE_EVENTS` and
 * `GATE_CHECKS`, and against what `routeOf` does with that event, so the two cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import type { RunContext } from '../../src/model/run.js';
import { GATE_CHECKS, GATE_EVENTS, routeOf, type GatePath } from '../../src/sweep/gate-events.js';

interface Row {
  event: string;
  actions: string;
  path: string;
  checks: string;
}

/** The rows of the table under "Which events delete" in docs/lifecycle.md. */
function docRows(): Row[] {
  const text = readFileSync('docs/lifecycle.md', 'utf8');
  const section = text.slice(text.indexOf('## Which events delete'));
  const table = section.slice(
    section.indexOf('\n| Event'),
    section.indexOf('\n\n', section.indexOf('\n| Event')),
  );
  return table
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => {
      const [event, actions, path, checks] = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      return { event: event!, actions: actions!, path: path!, checks: checks! };
    });
}

const ROWS = docRows();
const code = (s: string): string => `\`${s}\``;
const pathOf = (context: RunContext, allowed: string[] = []): GatePath => {
  const route = routeOf(context, allowed);
  return 'refused' in route ? 'refused' : route.path;
};

/** The rows that are not one event: what the gate does for each, as a context to route. */
const OTHER_ROWS: Record<string, { context: RunContext; allowed?: string[] }> = {
  'an event named in `allow-events`': { context: { event: { name: 'push' } }, allowed: ['push'] },
  'none (the command line outside a workflow)': { context: {} },
  'any other event, or another action of one above': { context: { event: { name: 'push' } } },
};

describe("the docs' table of events is the gate's", () => {
  test('one row per event of GATE_EVENTS, in its order, then the other rows', () => {
    expect(ROWS.map((r) => r.event)).toEqual([
      ...Object.keys(GATE_EVENTS).map(code),
      ...Object.keys(OTHER_ROWS),
    ]);
  });

  test.each(Object.entries(GATE_EVENTS))('%s: its actions, path and checks', (name, rule) => {
    const row = ROWS.find((r) => r.event === code(name))!;
    expect(row).toEqual({
      event: code(name),
      actions: rule.actions ? rule.actions.map(code).join(', ') : 'every one',
      path: code(rule.path),
      checks: GATE_CHECKS[rule.path],
    });
    // And the gate routes it so: each action listed takes the path; another is refused (a comment: not a request).
    for (const action of rule.actions ?? ['any']) expect(pathOf({ event: { name, action } })).toBe(rule.path);
    if (rule.actions)
      expect(pathOf({ event: { name, action: 'reopened' } })).toBe(
        rule.path === 'comment' ? 'comment' : 'refused',
      );
  });

  test.each(Object.entries(OTHER_ROWS))('%s', (label, { context, allowed }) => {
    const row = ROWS.find((r) => r.event === label)!;
    const path = pathOf(context, allowed);
    expect(row).toEqual({ event: label, actions: row.actions, path: code(path), checks: GATE_CHECKS[path] });
  });

  test('a payload the gate cannot read is refused, whatever the event', () => {
    for (const name of Object.keys(GATE_EVENTS).filter((n) => GATE_EVENTS[n]!.path !== 'targets'))
      expect(
        routeOf({ event: { name, problem: `the ${name} event's payload cannot be read: x` } }, [name]),
      ).toEqual({ refused: `the ${name} event's payload cannot be read: x` });
  });
});
