/**
 * The lifecycle's inputs → LifecycleSettings: keep label, max age, comment command, allowed events, GitOps owner
 * policy. Pure.
 */
import { Inputs } from './action-names.js';
import { readChoice } from './read-input.js';
import { ACTION_NAMING, Problems, type Naming } from './naming.js';
import { parseDuration } from '../shared/duration.js';
import { ConfigError } from '../shared/errors.js';
import { GITOPS_OWNER_POLICIES, type LifecycleSettings } from '../model/lifecycle.js';
import { COMMENT_EVENTS } from '../model/run.js';

type Read = (name: string) => string;

/** GitHub's longest label name. */
const MAX_LABEL = 50;
/** The longest `max-age`: a year; a longer one is more likely a typo than a policy. */
const MAX_AGE_LIMIT_MS = 366 * 24 * 3_600_000;

/** What a run does when the lifecycle inputs could not be read (the error is reported, the run does not start). */
export const NO_LIFECYCLE: LifecycleSettings = {
  keepLabel: undefined,
  maxAgeMs: undefined,
  command: '/teardown',
  allowEvents: [],
  gitopsOwners: 'report',
};

function readKeepLabel(read: Read, n: Naming): string | undefined {
  const raw = read(Inputs.keepLabel);
  const label = raw.trim();
  if (label === '') return undefined;
  // eslint-disable-next-line no-control-regex
  if (label.length > MAX_LABEL || /[\u0000-\u001f\u007f]/.test(label) || raw.includes('\n'))
    throw new ConfigError(
      `${n.input(Inputs.keepLabel)} is "${label.slice(0, 80)}"; allowed: one GitHub label name (at most ${MAX_LABEL} characters, one line), or empty for none.`,
      Inputs.keepLabel,
    );
  return label;
}

function readMaxAge(read: Read, n: Naming): number | undefined {
  const raw = read(Inputs.maxAge).trim();
  if (raw === '') return undefined;
  const ms = parseDuration(raw);
  if (ms === undefined || ms === 0 || ms > MAX_AGE_LIMIT_MS)
    throw new ConfigError(
      `${n.input(Inputs.maxAge)} is "${raw}"; allowed: a duration from 1m to 366d, e.g. 72h or 7d, or empty for none.`,
      Inputs.maxAge,
    );
  return ms;
}

function readCommand(read: Read, n: Naming): string {
  const raw = read(Inputs.commentCommand).trim() || '/teardown';
  if (!/^\/[a-z][a-z0-9-]{0,39}$/.test(raw))
    throw new ConfigError(
      `${n.input(Inputs.commentCommand)} is "${raw.slice(0, 80)}"; allowed: a slash and a lower-case word, e.g. /teardown.`,
      Inputs.commentCommand,
    );
  return raw;
}

/** GitHub's event names: lower-case words joined by `_` (`push`, `workflow_run`). */
const EVENT_NAME = /^[a-z]+(_[a-z]+)*$/;

/** `allow-events`: event names, none of them a comment event (a comment always needs its author's write access). */
function readAllowEvents(read: Read, n: Naming): string[] {
  const names = read(Inputs.allowEvents)
    .split(/[\s,]+/)
    .filter(Boolean);
  for (const name of names) {
    const comment = (COMMENT_EVENTS as readonly string[]).includes(name);
    if (EVENT_NAME.test(name) && name.length <= 50 && !comment) continue;
    throw new ConfigError(
      `${n.input(Inputs.allowEvents)} names "${name.slice(0, 80)}"; allowed: GitHub event names, e.g. push, ${
        comment
          ? "but no comment event: a comment always needs its author's write access, read from GitHub"
          : 'separated by commas or spaces'
      }.`,
      Inputs.allowEvents,
    );
  }
  return [...new Set(names)];
}

/** Read the lifecycle inputs, every problem at once; `max-age` needs the sweep, the scheduled cleanup it acts in. */
export function readLifecycle(read: Read, sweep: boolean, n: Naming = ACTION_NAMING): LifecycleSettings {
  const p = new Problems();
  const maxAgeMs = p.take(() => readMaxAge(read, n), undefined);
  if (maxAgeMs !== undefined && !sweep)
    p.take(() => {
      throw new ConfigError(
        `${n.input(Inputs.maxAge)} is "${read(Inputs.maxAge).trim()}" but ${n.ref(Inputs.sweep)} is off; max-age acts in the sweep (${n.setting(Inputs.sweep, 'plan')} or on), the scheduled cleanup.`,
        Inputs.maxAge,
      );
    }, undefined);
  const settings = {
    keepLabel: p.take(() => readKeepLabel(read, n), undefined),
    maxAgeMs,
    command: p.take(() => readCommand(read, n), '/teardown'),
    allowEvents: p.take(() => readAllowEvents(read, n), []),
    gitopsOwners: p.take(
      () => readChoice(read, Inputs.gitopsOwners, GITOPS_OWNER_POLICIES, n),
      'report' as const,
    ),
  };
  p.throwAny();
  return settings;
}
