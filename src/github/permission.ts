/** A user's permission on a repository, read from GitHub's API (never from an event's author association). */
import type { RepoRef } from '../model/pulls.js';
import { messageOf } from '../shared/errors.js';
import { GitHubError, type GitHubApi } from './port.js';

/** What GitHub answered: the permission (`admin`, `maintain`, `write`, `triage`, `read`, `none`), or why not. */
export type Permission = { permission: string } | { error: string };

interface PermissionJson {
  permission?: unknown;
  role_name?: unknown;
  user?: { login?: unknown } | null;
}

/** Permissions that may push, and so may ask for a teardown. */
const WRITERS = new Set(['admin', 'maintain', 'write']);

/** Whether `p` lets its holder push to the repository. */
export const canWrite = (p: Permission): boolean => 'permission' in p && WRITERS.has(p.permission);

/**
 * `GET /repos/{owner}/{repo}/collaborators/{login}/permission`. The answer must name the user asked about; `role_name`
 * (a repository role, `maintain` included) is preferred where it is a base role, else `permission`. A 404 (not a
 * collaborator) reads as `none`; any other failure is an error: the caller refuses.
 */
export async function permissionOf(api: GitHubApi, repo: RepoRef, login: string): Promise<Permission> {
  const route =
    `GET /repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}` +
    `/collaborators/${encodeURIComponent(login)}/permission`;
  try {
    const { data } = await api.request<PermissionJson>(route);
    const said = data.user?.login;
    if (typeof said !== 'string' || said.toLowerCase() !== login.toLowerCase())
      return {
        error: `GitHub answered the permission of ${typeof said === 'string' ? said : 'no user'}, not ${login}`,
      };
    const role = typeof data.role_name === 'string' ? data.role_name : undefined;
    const base = typeof data.permission === 'string' ? data.permission : undefined;
    const permission = role && (WRITERS.has(role) || role === 'triage' || role === 'read') ? role : base;
    return permission ? { permission } : { error: 'GitHub answered no permission' };
  } catch (error) {
    if (error instanceof GitHubError && error.kind === 'not-found') return { permission: 'none' };
    return { error: messageOf(error) };
  }
}
