// Loaded with `node --import` into the measured process: at exit it writes the process's peak RSS (KiB) to the
// file named by NT_RSS_FILE. Nothing else; the bundle under test is unchanged.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.NT_RSS_FILE;
  if (!file) return;
  try {
    writeFileSync(file, String(process.resourceUsage().maxRSS));
  } catch {
    // The measurement is lost, never the run.
  }
});
