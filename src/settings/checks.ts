/** Checks across inputs (each alone may be fine): what cannot go together, and what one needs of another. Pure. */
import { ConfigError } from '../shared/errors.js';
import { compileGlob } from '../shared/glob.js';
import { Inputs } from './action-names.js';
import type { Naming } from './naming.js';
import type { SweepSettings } from '../model/sweep.js';

/** What the checks read of the settings (settings.ts's `Settings`, without importing it). */
interface Given {
  namespaces: readonly string[];
  selector: string | undefined;
  scope: string;
  sweep: SweepSettings | undefined;
  prComment: boolean;
  githubToken: string | undefined;
  protectedPatterns: readonly string[];
}

/** One function per check, each throwing a ConfigError when its inputs do not go together. */
export function crossChecks(s: Given, n: Naming): (() => void)[] {
  const fail = (message: string, input: string): never => {
    throw new ConfigError(message, input);
  };
  return [
    () =>
      s.sweep &&
      s.namespaces.length > 0 &&
      fail(
        `${n.input(Inputs.namespaces)} and ${n.setting(Inputs.sweep, s.sweep.mode)} cannot be used together: the sweep chooses the targets (narrow it with ${n.ref(Inputs.selector)}).`,
        Inputs.namespaces,
      ),
    () =>
      s.sweep &&
      s.githubToken === undefined &&
      fail(
        `${n.input(Inputs.githubToken)} is empty; the sweep needs a token that can read pull requests.`,
        Inputs.githubToken,
      ),
    () =>
      !s.sweep &&
      s.scope === 'targets' &&
      s.namespaces.length === 0 &&
      s.selector === undefined &&
      fail(
        `No targets: set ${n.ref(Inputs.namespaces)} (names separated by newlines, commas or spaces) or ${n.ref(Inputs.selector)}, turn on ${n.ref(Inputs.sweep)}, or use ${n.setting(Inputs.scope, 'all-terminating')}.`,
        Inputs.namespaces,
      ),
    () =>
      s.prComment &&
      s.githubToken === undefined &&
      fail(
        `${n.input(Inputs.githubToken)} is empty; ${n.setting(Inputs.prComment, 'true')} needs a token that can write pull-request comments.`,
        Inputs.githubToken,
      ),
    () => {
      const refused = s.namespaces.filter((name) =>
        s.protectedPatterns.some((p) => compileGlob(p).test(name)),
      );
      if (refused.length > 0)
        fail(
          `${n.input(Inputs.namespaces)} names protected namespace(s) ${refused.map((r) => `"${r}"`).join(', ')}; ` +
            `protected: ${s.protectedPatterns.join(', ')}. Remove them from the targets.`,
          Inputs.namespaces,
        );
    },
  ];
}
