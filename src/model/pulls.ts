/** Pull requests as the sweep asks about them: which repository, and the state GitHub answered. */

/** `owner/name` split in two. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** The state of a pull request as the sweep needs it; `unknown` never lets a namespace go. */
export type PullState =
  | { state: 'open'; url?: string }
  | { state: 'closed' | 'merged'; closedAt: string; url?: string }
  | { state: 'missing' }
  | { state: 'unknown'; error: string };
