/** One clear line for the user out of any error. Pure. */
import { KubeError } from './port.js';
import { ConfigError, messageOf } from '../shared/errors.js';

/** Where the RBAC the action needs is documented. */
export const RBAC_HINT = 'Grant the permissions in deploy/rbac.yaml (see the README, "Permissions").';

/** Turn an error into one clear line for the user. */
export function explain(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof KubeError && error.code === 401)
    return `${error.message}. The credentials were rejected.`;
  if (error instanceof KubeError && error.code === 403) return `${error.message}. ${RBAC_HINT}`;
  return messageOf(error);
}
