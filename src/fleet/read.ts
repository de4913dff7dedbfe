/**
 * Find and read the clusters' reports: every `.json` file under the paths given (directories searched through, as
 * `actions/download-artifact` lays them out with or without `merge-multiple`), each checked. A path that does not exist
 * or holds no report is itself a problem, named like a bad report.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { messageOf } from '../shared/errors.js';
import type { Found } from './merge.js';
import { checkReport } from './validate.js';

/** A report larger than this is not read (the biggest runs write a few tens of MB). */
export const MAX_REPORT_BYTES = 256 * 1024 * 1024;

const problem = (source: string, text: string): Found => ({ source, checked: { problem: text } });

/** The `.json` files under `dir`, at any depth, sorted so the merge is the same on every machine. */
async function jsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Read and check one file. */
async function readOne(file: string): Promise<Found> {
  try {
    const size = (await stat(file)).size;
    if (size > MAX_REPORT_BYTES)
      return problem(file, `${Math.round(size / 1024 / 1024)} MiB, more than a report can be; not read`);
    return { source: file, checked: checkReport(await readFile(file, 'utf8')) };
  } catch (error) {
    return problem(file, `cannot be read: ${messageOf(error)}`);
  }
}

/** Every report under `paths`, one at a time (only one file's text is held at once). */
export async function readReports(paths: readonly string[]): Promise<Found[]> {
  const found: Found[] = [];
  for (const path of paths) {
    let files: string[];
    try {
      files = (await stat(path)).isDirectory() ? await jsonFiles(path) : [path];
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      found.push(
        problem(
          path,
          code === 'ENOENT'
            ? 'does not exist: no report was downloaded there (did every job fail before uploading one?)'
            : `cannot be read: ${messageOf(error)}`,
        ),
      );
      continue;
    }
    if (files.length === 0) found.push(problem(path, 'holds no .json file: no report was downloaded there'));
    for (const file of files) found.push(await readOne(file));
  }
  return found;
}
