/** The lifecycle's inputs → LifecycleSettings: keep label, max age, comment command, GitOps owner policy. Pure. */
import { Inputs } from './action-names.js';
import { parseDuration } from '../shared/duration.js';
import { ConfigError } from '../shared/errors.js';
import { GITOPS_OWNER_POLICIES, type GitopsOwnerPolicy, type LifecycleSettings } from '../model/lifecycle.js';

type Read = (name: string) => string;

/** GitHub's longest label name. */
const MAX_LABEL = 50;
/** The longest `max-age`: a year; a longer one is more likely a typo than a policy. */
const MAX_AGE_LIMIT_MS = 366 * 24 * 3_600_000;

function readKeepLabel(read: Read): string | undefined {
  const raw = read(Inputs.keepLabel);
  const label = raw.trim();
  if (label === '') return undefined;
  // eslint-disable-next-line no-control-regex
  if (label.length > MAX_LABEL || /[\u0000-\u001f\u007f]/.test(label) || raw.includes('\n'))
    throw new ConfigError(
      `Input "keep-label" is "${label.slice(0, 80)}"; allowed: one GitHub label name (at most ${MAX_LABEL} characters, one line), or empty for none.`,
      Inputs.keepLabel,
    );
  return label;
}

function readMaxAge(read: Read): number | undefined {
  const raw = read(Inputs.maxAge).trim();
  if (raw === '') return undefined;
  const ms = parseDuration(raw);
  if (ms === undefined || ms === 0 || ms > MAX_AGE_LIMIT_MS)
    throw new ConfigError(
      `Input "max-age" is "${raw}"; allowed: a duration from 1m to 366d, e.g. 72h or 7d, or empty for none.`,
      Inputs.maxAge,
    );
  return ms;
}

function readCommand(read: Read): string {
  const raw = read(Inputs.commentCommand).trim() || '/teardown';
  if (!/^\/[a-z][a-z0-9-]{0,39}$/.test(raw))
    throw new ConfigError(
      `Input "comment-command" is "${raw.slice(0, 80)}"; allowed: a slash and a lower-case word, e.g. /teardown.`,
      Inputs.commentCommand,
    );
  return raw;
}

function readGitopsOwners(read: Read): GitopsOwnerPolicy {
  const raw = read(Inputs.gitopsOwners).trim() || 'report';
  if (!(GITOPS_OWNER_POLICIES as readonly string[]).includes(raw))
    throw new ConfigError(
      `Input "gitops-owners" is "${raw}"; allowed: ${GITOPS_OWNER_POLICIES.join(', ')}.`,
      Inputs.gitopsOwners,
    );
  return raw as GitopsOwnerPolicy;
}

/** Read the lifecycle inputs; `max-age` needs the sweep, which is the scheduled cleanup it acts in. */
export function readLifecycle(read: Read, sweep: boolean): LifecycleSettings {
  const maxAgeMs = readMaxAge(read);
  if (maxAgeMs !== undefined && !sweep)
    throw new ConfigError(
      `Input "max-age" is "${read(Inputs.maxAge).trim()}" but "sweep" is off; max-age acts in the sweep (sweep: plan or on), the scheduled cleanup.`,
      Inputs.maxAge,
    );
  return {
    keepLabel: readKeepLabel(read),
    maxAgeMs,
    command: readCommand(read),
    gitopsOwners: readGitopsOwners(read),
  };
}
