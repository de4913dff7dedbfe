/** The `scope` input: the named targets, or every namespace already Terminating. Pure. */
import { ConfigError } from '../shared/errors.js';
import { Inputs } from './action-names.js';

/** The values `scope` allows; the first is the default. */
export const SCOPES = ['targets', 'all-terminating'] as const;
export type Scope = (typeof SCOPES)[number];

/** Read `scope`; `all-terminating` chooses its own targets, so `namespaces` and `sweep` cannot come with it. */
export function readScope(
  read: (name: string) => string,
  given: { namespaces: readonly string[]; sweep: boolean },
): Scope {
  const raw = read(Inputs.scope).trim() || 'targets';
  if (!(SCOPES as readonly string[]).includes(raw))
    throw new ConfigError(`Input "scope" is "${raw}"; allowed: ${SCOPES.join(', ')}.`, Inputs.scope);
  const scope = raw as Scope;
  if (scope === 'all-terminating' && given.namespaces.length > 0)
    throw new ConfigError(
      `Inputs "namespaces" and "scope: all-terminating" cannot be used together: the scope takes every namespace already Terminating (narrow it with "selector").`,
      Inputs.namespaces,
    );
  if (scope === 'all-terminating' && given.sweep)
    throw new ConfigError(
      `Inputs "sweep" and "scope: all-terminating" cannot be used together: the sweep deletes, the scope only looks at what is already Terminating.`,
      Inputs.sweep,
    );
  return scope;
}
