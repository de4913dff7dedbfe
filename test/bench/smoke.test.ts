/**
 * The bench is never part of the test run; this only checks that `npm run bench -- --smoke` (the quick run at its
 * smallest sizes) works end to end and fills every table.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';

const TSX = join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** A bench that prints nothing for this long has stalled: its sections each print a line when they end. */
const STALL_MS = 180_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run the bench to its end, however long a loaded machine makes it; it is stopped only when it stalls (no output
 * for STALL_MS), so the check never depends on how fast the machine is.
 */
function bench(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSX, 'bench/run.ts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let last = Date.now();
    child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), (last = Date.now())));
    child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), (last = Date.now())));
    const watchdog = setInterval(() => {
      if (Date.now() - last > STALL_MS) {
        stderr += `bench: stalled, no output for ${STALL_MS / 1000} s\n`;
        child.kill('SIGTERM');
      }
    }, 1000);
    child.on('close', (code, signal) => {
      clearInterval(watchdog);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

test(
  'npm run bench -- --smoke writes the report with its tables and figures',
  async () => {
    {
      const out = join(tempDir('nt-bench-smoke-'), 'BENCHMARKS.md');
      const run = await bench('--smoke', '--out', out);
      expect({ code: run.code, stderr: run.stderr.split('\n').filter((l) => l.startsWith('bench')) }).toEqual(
        {
          code: 0,
          stderr: [],
        },
      );
      const md = readFileSync(out, 'utf8');
      for (const heading of [
        '# Benchmarks',
        '## Targets',
        '## 1. Big namespace',
        "## 1b. The big namespace after the namespace controller's pass",
        '## 2. Many namespaces',
        '## 3. Detection latency',
        '## 4. Start-up',
        '## 5. Big namespace on a real API server',
        '## 6. Forcing at scale',
        '## 7. Custom resources first: an operator inside the preview namespace',
        '## 8. Sweep: asking GitHub about 20 pull requests',
        '## 9. Scale: thousands of targets in one run',
        '## 10. Fleet: many clusters merged into one answer',
        '## 11. Time to the answer: settled, not timed out',
        '## How the figures are measured',
      ]) {
        expect(md.split('\n')).toContain(heading);
      }
      expect(md).toContain('| Target | Goal | Measured | Verdict |');
      // Section 11: the leak settles; the live controller's namespace goes clean, never cut short.
      expect(md).toMatch(/\| one leaked namespace \| [\d.]+ s \| stuck \| settled \|/);
      expect(md).toMatch(/\| one namespace a live controller holds 3 s \| [\d.]+ s \| clean \| gone \|/);
      // Section 7: the operator finishes its cleanups with custom resources first; forcing skips every one.
      expect(md).toMatch(/\| `custom-resources-first` \(default\) \| [^|]+ \| clean \| 2 of 2 \| 0 \|/);
      expect(md).toMatch(/\| `namespace` \+ `force: on`[^|]* \| [^|]+ \| forced \| 0 of 2 \| 2 \|/);
      expect(md).toMatch(/Added cost of the custom-resources phase without custom resources: -?[\d.]+ %/);
      expect(md).toMatch(/\| Machine \| .+, \d+ cores, /);
      // Section 9: the action's own peak RSS and summary size for a run of 20 targets.
      expect(md).toMatch(/\| 20 targets, all present \| \d+ MiB \| [\d.]+ s of \d+ s \| [\d.]+ KB/);
      expect(md).toMatch(/\| Latency \| 5 ms per request/);
      // Section 10: the merge step's time, peak RSS and summary for 3 clusters × 10 namespaces.
      // (The run behind the reports may end stuck or, on a loaded machine, in error: either fails the check.)
      expect(md).toMatch(
        /\| [\d.]+ s \| \d+ MiB \| [\d.]+ MiB \| [\d.]+ KB[^|]* \| (stuck|error) \(exit 1\) \|/,
      );
      // Numeric figures: ours' wall time and request count, the ratios, the per-namespace requests, the detection.
      expect(md).toMatch(
        /\| \*\*ours\*\*: .* \| \d+(\.\d)? ms( \([^)]*\))? \| \d+ \| [\d.]+ KiB( \([^)]*\))? \|/,
      );
      expect(md).toMatch(
        /\| Big namespace vs the naive client-node scan \| ≥ 5× faster \| \d+(\.\d+)?× \(\d+ ms vs \d+ ms\) \|/,
      );
      expect(md).toMatch(/\| Big namespace vs the latency floor \| ≤ 2× the floor \| \d+(\.\d+)?× /);
      expect(md).toMatch(/\| 3 at once \| 3 \(1 stuck\) \| \d+ ms \| \d+ \| \d+\.\d\d \|/);
      expect(md).toMatch(/\| 3 at once \| \d+ \| \d+(\.\d)? ms \| \d+(\.\d)? ms \| \d+(\.\d)? ms \|/);
      expect(md).toMatch(/(✅ pass|❌ miss)/);
      expect(md).toMatch(/\| \*\*targeted\*\*: .* \| \d+(\.\d)? ms \| \d+ \| [\d.]+ KiB \|/);
      expect(md).toContain('Findings: identical (a targeted and a full snapshot taken with the same clock)');
      // The peers beside ours, in section 1 and 1b, with their requests and bytes.
      expect(md).toMatch(
        /\| metadata-only pool scan, legacy discovery .* \| \d+(\.\d)? ms( \([^)]*\))? \| \d+ \| [\d.]+ KiB/,
      );
      expect(md).toMatch(/\| Big namespace: ours vs the one-process kubectl recipe \| ≥ 10× faster \| /);
      // The sweep: one GraphQL query for 20 pull requests, 20 REST requests (+ the refused query) beside it.
      expect(md).toMatch(/\| \*\*GraphQL\*\*, 100 pull requests per query \| 1 \| /);
      expect(md).toMatch(/\| REST, one `GET …\/pulls\/N` per pull request .* \| 21 \| /);
      // The real server is never started by the smoke run (every other bench starts it where it can): its rows say so.
      expect(md).toMatch(
        /\| Real server 1\.20: .* targeted scan vs the kubectl recipe \| ≥ 300× faster \| not measured: --smoke \| — not measured \|/,
      );
      expect(md).toMatch(
        /\| Real server 1\.20: time to the answer of a leaked finalizer, default inputs \| ≤ 20 s, a failing check \| not measured: --smoke \| — not measured \|/,
      );
      expect(run.stdout.trim().split('\n').at(-1)).toMatch(
        /^bench: big namespace .*[\d.]+× than the naive scan, [\d.]+× the latency floor, .* targets met \d+\/\d+$/,
      );
    }
    // Only a guard against a hang the watchdog cannot see; a stall ends the run long before.
  },
  30 * 60_000,
);
