// Loaded with `node --import` into the measured process: at exit it writes the process's peak RSS (KiB) to the
// file named by NT_RSS_FILE. Nothing else; the bundle under test is unchanged.
//
// The peak is VmHWM from /proc/self/status: the high-water mark of this process's own memory since it started.
// `process.resourceUsage().maxRSS` is not: Linux carries into it the RSS the process had as a fork of its parent
// before exec, so a child of a bench process holding 250 MiB reported at least 250 MiB whatever it did.
import { readFileSync, writeFileSync } from 'node:fs';

function peakKiB() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // Not Linux: the portable figure, with its caveat.
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const file = process.env.NT_RSS_FILE;
  if (!file) return;
  try {
    writeFileSync(file, String(peakKiB()));
  } catch {
    // The measurement is lost, never the run.
  }
});
