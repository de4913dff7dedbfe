/** Stuck namespaces grouped by what blocks them (never by object names), each cause with the one script to paste. Pure. */
import { comesBack } from '../diagnosis/index.js';
import type { Finding } from '../model/findings.js';
import type { RunReport, TargetReport } from '../model/run.js';
import { isLookup, loopScript, shellWords, withContext } from './commands.js';

/** One root cause and every namespace it blocks. */
export interface Cause {
  /** The verdict of the first namespace (the others have the same cause, with their own names). */
  verdict: Finding;
  /** The verdict in words: the first namespace's, or for several namespaces the cause's without their names. */
  summary: string;
  targets: TargetReport[];
  /** Objects the cause is about in all its namespaces, when the findings count them. */
  objects?: number;
  /** The script to paste (a loop when the cause repeats), `--context` added; undefined when nothing safe fixes it. */
  command?: string;
  /** Look-ups to paste when no command fixes it. */
  lookups: string[];
  /** What unblocks anyway at a risk the verdict's controller or control would not take: shown apart, marked. */
  lastResort?: { command: string; risk: string };
}

/**
 * The verdict of a namespace: its first finding, once the diagnosis ranked them; for one that went, a live owner
 * bringing it back comes before what slowed it down.
 */
export const verdictOf = (t: TargetReport): Finding | undefined =>
  (t.outcome !== 'stuck' && t.findings.find(comesBack)) || t.findings[0];

/** Whether a target needs a fix: still stuck, or gone only to be applied again by a live owner (or one that may be). */
export const needsFix = (t: TargetReport): boolean => t.outcome === 'stuck' || t.findings.some(comesBack);

/** Scripts of more namespaces than this that cannot be one loop are cut, with a count. */
const LISTED_SCRIPTS = 10;

/** The command with the namespace as `"$ns"` and no UID test (each object has its own UID). */
function loopBody(command: string, ns: string): string {
  const words = shellWords(
    command.replace(/\{"op":"test","path":"\/metadata\/uid","value":"[^"]*"\},?/g, ''),
  );
  return words
    .map((w) => (w === ns ? '"$ns"' : w.split(`/namespaces/${ns}/`).join('/namespaces/"$ns"/')))
    .join(' ');
}

/**
 * One script for every member: shared when it is the same everywhere, a loop over the namespaces when only their names
 * differ, else each namespace's own (cut to a few). `scripts[i]` are the commands of `targets[i]`.
 */
function unify(targets: TargetReport[], scripts: string[][]): { script: string; loops: boolean } | undefined {
  if (scripts.length === 0 || scripts.some((s) => s.length === 0)) return undefined;
  const joined = scripts.map((s) => s.join('\n'));
  if (new Set(joined).size === 1) return { script: joined[0]!, loops: false };
  const bodies = scripts.map((s, i) => s.map((c) => loopBody(c, targets[i]!.name)));
  if (new Set(bodies.map((b) => b.join('\n'))).size === 1)
    return {
      script: loopScript(
        targets.map((t) => t.name),
        bodies[0]!,
      ),
      loops: true,
    };
  return undefined;
}

/** The fix script of a group: its commands as one loop, else their name-free bulk form, else each one's own. */
function groupScript(
  targets: TargetReport[],
  pick: (f: Finding) => { commands?: string[]; bulk?: string[] } | undefined,
): string | undefined {
  const remedies = targets.map((t) => pick(verdictOf(t)!));
  const commands = remedies.map((r) => (r?.commands ?? []).filter((c) => !isLookup(c)));
  const direct = unify(targets, commands);
  if (direct) return direct.script;
  const bulk = unify(
    targets,
    remedies.map((r) => r?.bulk ?? []),
  );
  if (bulk) return bulk.script;
  if (commands.some((c) => c.length === 0)) return undefined;
  const shown = commands.slice(0, LISTED_SCRIPTS).map((c) => c.join('\n'));
  const more = commands.length - shown.length;
  return [...shown, ...(more > 0 ? [`# … and ${more} more namespaces: see the JSON report`] : [])].join('\n');
}

/** Stuck namespaces grouped by the cause of their verdict, biggest group first, then by first namespace name. */
export function causesOf(report: RunReport, targets = report.targets.filter(needsFix)): Cause[] {
  const groups = new Map<string, TargetReport[]>();
  for (const t of targets) {
    const v = verdictOf(t);
    const key = v ? `${v.id}\u0000${v.cause}` : `\u0002${t.name}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const context = report.context.cluster?.context;
  const causes = [...groups.values()].flatMap((members): Cause[] => {
    const verdict = verdictOf(members[0]!);
    if (!verdict) return [];
    const fix = groupScript(members, (f) => f.remedy);
    const command = fix === undefined ? undefined : withContext(fix, context);
    const lookups = verdict.remedy.commands.filter(isLookup).map((c) => withContext(c, context));
    const last = verdict.remedy.lastResort;
    const resort = last && groupScript(members, (f) => f.remedy.lastResort);
    const counted = members.map((t) => verdictOf(t)!.objects);
    const objects = counted.every((n) => n !== undefined) ? counted.reduce((a, b) => a! + b!, 0) : undefined;
    return [
      {
        verdict,
        summary: members.length > 1 ? (verdict.causeSummary ?? verdict.summary) : verdict.summary,
        targets: members,
        ...(objects !== undefined ? { objects } : {}),
        command,
        lookups: command ? [] : lookups,
        ...(last && resort ? { lastResort: { command: withContext(resort, context), risk: last.risk } } : {}),
      },
    ];
  });
  return causes.sort(
    (a, b) => b.targets.length - a.targets.length || (a.targets[0]!.name < b.targets[0]!.name ? -1 : 1),
  );
}
