/** Stuck namespaces grouped by root cause, each cause with the one command to paste. Pure. */
import type { Finding } from '../diagnosis/types.js';
import type { RunReport, TargetReport } from '../outcome.js';
import { fixCommand, shellWords, withContext } from './commands.js';

/** One root cause and every namespace it blocks. */
export interface Cause {
  /** The verdict of the first namespace (the others have the same one, up to their names). */
  verdict: Finding;
  targets: TargetReport[];
  /** The one command to paste (a loop when the cause repeats), `--context` added; undefined when none fixes it. */
  command?: string;
  /** Look-ups to paste when no command fixes it. */
  lookups: string[];
}

/** The verdict of a namespace: its first finding, once the diagnosis ranked them. */
export const verdictOf = (t: TargetReport): Finding | undefined => t.findings[0];

const ESCAPE_RE = /[.*+?^${}()|[\]\\]/g;

/** The finding's summary with the namespace's own name taken out, so one cause in many namespaces matches. */
function causeKey(t: TargetReport, f: Finding): string {
  const name = new RegExp(`\\b${t.name.replace(ESCAPE_RE, '\\$&')}\\b`, 'g');
  return `${f.id}\u0000${f.summary.replace(name, '\u0001')}`;
}

/** The command with the namespace as `"$ns"` and no UID test (each object has its own UID). */
function loopBody(command: string, ns: string): string {
  const words = shellWords(
    command.replace(/\{"op":"test","path":"\/metadata\/uid","value":"[^"]*"\},?/g, ''),
  );
  return words
    .map((w) => (w === ns ? '"$ns"' : w.split(`/namespaces/${ns}/`).join('/namespaces/"$ns"/')))
    .join(' ');
}

/** One command for the whole group: shared, a loop over the namespaces, or each one on its own line. */
function groupCommand(targets: TargetReport[], commands: string[]): string {
  if (new Set(commands).size === 1) return commands[0]!;
  const bodies = commands.map((c, i) => loopBody(c, targets[i]!.name));
  if (new Set(bodies).size === 1)
    return `for ns in ${targets.map((t) => t.name).join(' ')}; do ${bodies[0]}; done`;
  return commands.join('\n');
}

/** Stuck namespaces grouped by root cause, biggest group first, then by first namespace name. */
export function causesOf(
  report: RunReport,
  targets = report.targets.filter((t) => t.outcome === 'stuck'),
): Cause[] {
  const groups = new Map<string, TargetReport[]>();
  for (const t of targets) {
    const v = verdictOf(t);
    const key = v ? causeKey(t, v) : `\u0002${t.name}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const context = report.context.cluster?.context;
  const causes = [...groups.values()].flatMap((members): Cause[] => {
    const verdict = verdictOf(members[0]!);
    if (!verdict) return [];
    const fixes = members.map((t) => fixCommand(verdictOf(t)!));
    const all = fixes.every((c): c is string => c !== undefined);
    const command = all ? withContext(groupCommand(members, fixes), context) : undefined;
    const lookups = command ? [] : verdict.remedy.commands.map((c) => withContext(c, context));
    return [{ verdict, targets: members, command, lookups }];
  });
  return causes.sort(
    (a, b) => b.targets.length - a.targets.length || (a.targets[0]!.name < b.targets[0]!.name ? -1 : 1),
  );
}
