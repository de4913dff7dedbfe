/** The `scope` input: the named targets, or every namespace already Terminating. Pure. */
import { ConfigError } from '../shared/errors.js';
import { Inputs } from './action-names.js';
import { readChoice } from './read-input.js';
import { ACTION_NAMING, type Naming } from './naming.js';

/** The values `scope` allows; the first is the default. */
export const SCOPES = ['targets', 'all-terminating'] as const;
export type Scope = (typeof SCOPES)[number];

/** Read `scope`; `all-terminating` chooses its own targets, so `namespaces` and `sweep` cannot come with it. */
export function readScope(
  read: (name: string) => string,
  given: { namespaces: readonly string[]; sweep: boolean },
  n: Naming = ACTION_NAMING,
): Scope {
  const scope = readChoice(read, Inputs.scope, SCOPES, n);
  if (scope === 'all-terminating' && given.namespaces.length > 0)
    throw new ConfigError(
      `${n.input(Inputs.namespaces)} and ${n.setting(Inputs.scope, 'all-terminating')} cannot be used together: the scope takes every namespace already Terminating (narrow it with ${n.ref(Inputs.selector)}).`,
      Inputs.namespaces,
    );
  if (scope === 'all-terminating' && given.sweep)
    throw new ConfigError(
      `${n.input(Inputs.sweep)} and ${n.setting(Inputs.scope, 'all-terminating')} cannot be used together: the sweep deletes, the scope only looks at what is already Terminating.`,
      Inputs.sweep,
    );
  return scope;
}
