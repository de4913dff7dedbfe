/** Pull requests as the sweep asks about them: which repository, and the state GitHub answered. */

/** `owner/name` split in two. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/**
 * The state of a pull request as the sweep needs it; `unknown` never lets a namespace go. `labels` are its label
 * names when they were asked for and read whole (absent otherwise: a keep label then cannot be ruled out).
 */
export type PullState =
  | { state: 'open'; url?: string; labels?: string[] }
  | { state: 'closed' | 'merged'; closedAt: string; url?: string; labels?: string[] }
  | { state: 'missing' }
  | { state: 'unknown'; error: string };
