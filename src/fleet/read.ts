/**
 * Find and read the clusters' reports: every `.json` file under the paths given (directories searched through, as
 * `actions/download-artifact` lays them out with or without `merge-multiple`), each checked. A path that does not exist
 * or holds no report is itself a problem, named like a bad report. Only regular files are read, each bounded: another
 * job wrote them, and a FIFO, a device or a socket is refused without waiting on it.
 */
import type { Dirent, Stats } from 'node:fs';
import { constants } from 'node:fs';
import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { messageOf } from '../shared/errors.js';
import type { Found } from './merge.js';
import { checkReport } from './validate.js';

/**
 * A report larger than this is not read: 64 MiB, five times the largest the action writes (5,000 targets all
 * present: 12 MB, BENCHMARKS.md), and small enough that parsing one stays within a runner's memory.
 */
export const MAX_REPORT_BYTES = 64 * 1024 * 1024;

const problem = (source: string, text: string): Found => ({ source, checked: { problem: text } });

/** What an entry that is not a regular file is, in words. */
function kindOf(e: Dirent | Stats): string {
  if (e.isSymbolicLink()) return 'a symbolic link';
  if (e.isFIFO()) return 'a FIFO';
  if (e.isSocket()) return 'a socket';
  if (e.isCharacterDevice()) return 'a character device';
  if (e.isBlockDevice()) return 'a block device';
  return e.isDirectory() ? 'a directory' : 'not a file';
}

const notRegular = (source: string, e: Dirent | Stats): Found =>
  problem(source, `${kindOf(e)}, not a regular file: not read`);

/**
 * The `.json` entries under `dir`, at any depth, sorted so the merge is the same on every machine: a regular file to
 * read, or what else it is. A symbolic link is never followed, whatever it points to: download-artifact writes
 * regular files, and a link could lead out of the directory (to a file whose text a "not JSON" problem would quote)
 * or to a FIFO that never answers.
 */
async function jsonEntries(dir: string): Promise<{ path: string; refused?: Found }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.name.endsWith('.json') && !e.isDirectory())
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return e.isFile() ? { path } : { path, refused: notRegular(path, e) };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The file's text, or undefined when it holds more than `max` bytes (it may have grown since its `size` was read):
 * read in one piece of its size, then what more there is in pieces of a MiB at most.
 */
async function readBounded(handle: FileHandle, size: number, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = total === 0 ? size + 1 : 1024 * 1024;
    const chunk = Buffer.allocUnsafe(Math.min(want, max + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > max) return undefined;
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

const OVER = (size: number): string =>
  `${size} bytes, more than the ${MAX_REPORT_BYTES / 1024 / 1024} MiB a report may be: not read`;

/**
 * Read and check one file. It is opened without waiting (O_NONBLOCK: a FIFO with no writer answers at once) and,
 * inside a searched directory, without following a link (O_NOFOLLOW); what was opened must be a regular file.
 */
async function readOne(file: string, follow: boolean): Promise<Found> {
  let handle: FileHandle;
  try {
    const flags = constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW);
    handle = await open(file, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return problem(file, 'a symbolic link, not a regular file: not read');
    if (code === 'ENXIO') return problem(file, 'a socket, not a regular file: not read');
    return problem(file, `cannot be read: ${messageOf(error)}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return notRegular(file, info);
    if (info.size > MAX_REPORT_BYTES) return problem(file, OVER(info.size));
    const text = await readBounded(handle, info.size, MAX_REPORT_BYTES);
    if (text === undefined) return problem(file, OVER(MAX_REPORT_BYTES + 1));
    return { source: file, checked: checkReport(text) };
  } catch (error) {
    return problem(file, `cannot be read: ${messageOf(error)}`);
  } finally {
    await handle.close();
  }
}

/**
 * What one path given holds: the files under a directory, or the path itself (a link is followed: the path is the
 * user's own). What is neither a directory nor a regular file is refused without being opened.
 */
async function readPath(path: string, found: Found[]): Promise<void> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist: no report was downloaded there (did every job fail before uploading one?)'
        : `cannot be read: ${messageOf(error)}`;
    found.push(problem(path, why));
    return;
  }
  if (!info.isDirectory()) {
    found.push(info.isFile() ? await readOne(path, true) : notRegular(path, info));
    return;
  }
  const entries = await jsonEntries(path);
  if (entries.length === 0) found.push(problem(path, 'holds no .json file: no report was downloaded there'));
  for (const e of entries) found.push(e.refused ?? (await readOne(e.path, false)));
}

/** Every report under `paths`, one at a time (only one file's text is held at once). */
export async function readReports(paths: readonly string[]): Promise<Found[]> {
  const found: Found[] = [];
  for (const path of paths) await readPath(path, found);
  return found;
}
