/** Whether this machine can draw emoji: without such a font every picture shows empty boxes where they belong. */
import { execFileSync } from 'node:child_process';

/** The code point the summaries use most (🔴): a font covering it draws them. */
const PROBE = '1f534';

/**
 * Why no picture should be written here, or undefined when a font covers emoji. Asks fontconfig (`fc-list`), as
 * Chromium does, which fonts cover the probe.
 */
export function emojiFontProblem(
  run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' }),
): string | undefined {
  let fonts: string;
  try {
    fonts = run('fc-list', [`:charset=${PROBE}`, 'family']);
  } catch {
    return 'fc-list (fontconfig) is not installed, so whether a font draws emoji cannot be told';
  }
  if (fonts.trim() !== '') return undefined;
  return `no installed font draws emoji (fc-list ':charset=${PROBE}' lists none): the picture would show empty boxes; install one, e.g. apt-get install fonts-noto-color-emoji`;
}

/** Stop the script, writing nothing, when no font draws emoji. */
export function requireEmojiFont(script: string): void {
  const problem = emojiFontProblem();
  if (!problem) return;
  console.error(`${script}: refusing to write pictures: ${problem}.`);
  process.exit(1);
}
