/** `namespace-teardown merge DIR…`: the merge action's answer on a terminal, from reports downloaded by hand. */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { commonContext, mergeFleet } from '../fleet/merge.js';
import { readReports } from '../fleet/read.js';
import { readClusterList } from '../settings/cluster-name.js';
import { readFailOn } from '../settings/settings.js';
import { ConfigError, messageOf } from '../shared/errors.js';
import { fleetExitCode, renderFleetOutput, writeFleetReport } from './fleet-output.js';
import { CLI_NAMING } from './flags.js';
import { chooseOutput, terminalWidth } from './output.js';
import { EXIT_STATUS, layoutHelp } from './help.js';

/** `merge --help`, laid out within `width` columns. */
export function mergeHelp(width: number): string {
  return layoutHelp(
    [
      { text: 'namespace-teardown merge: one answer from the reports of runs in many clusters.' },
      { usage: ['namespace-teardown merge [options] PATH...'], lead: 'Usage: ' },
      {
        rows: [
          [
            '  PATH',
            'a report file, or a directory searched through for .json reports (as gh run download or actions/download-artifact lays them out)',
          ],
          [
            '  --clusters LIST',
            'the clusters expected, names separated by commas or newlines, or a JSON list; one without a usable report is shown as unknown (default: those found)',
          ],
          ['  --fail-on MODE', 'leaked | stuck | never, applied to every cluster (default leaked)'],
          ['  --report FILE', 'write the merged JSON report there'],
          ['  -o, --output FORMAT', "text (default) | json | markdown (the merge step's job summary)"],
          ['  --help', 'this text'],
        ],
        column: 24,
      },
      { text: 'A report that is corrupt, of another version or not a report is named, never skipped.' },
      { title: 'Exit status:', rows: EXIT_STATUS.slice(0, 3), column: 13 },
    ],
    width,
  );
}

function parse(argv: string[]): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        clusters: { type: 'string' },
        'fail-on': { type: 'string' },
        report: { type: 'string' },
        output: { type: 'string', short: 'o' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new ConfigError(`${messageOf(error)}. See merge --help.`);
  }
}

/** Run `merge`; returns the exit status (bad input is thrown as a ConfigError, as for the teardown). */
export async function mergeCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    process.stdout.write(`${mergeHelp(terminalWidth(process.stdout, process.env))}\n`);
    return 0;
  }
  if (positionals.length === 0)
    throw new ConfigError('merge needs at least one report file or directory. See merge --help.');
  const missing = positionals.filter((p) => !existsSync(p));
  if (missing.length)
    throw new ConfigError(`merge: ${missing.map((p) => `"${p}"`).join(', ')} does not exist.`, 'reports');
  const read = (name: string): string => {
    const v = values[name];
    return typeof v === 'string' ? v : '';
  };
  const expected = readClusterList(read('clusters'), 'clusters', CLI_NAMING);
  const failOn = readFailOn(read, CLI_NAMING);
  const output = chooseOutput(values.output as string | undefined, process.stdout, process.env);
  const found = await readReports(positionals);
  const reports = found.flatMap((f) => ('report' in f.checked ? [f.checked.report] : []));
  const fleet = mergeFleet({ expected, found, failOn, context: commonContext(reports), now: Date.now() });
  const reportPath = typeof values.report === 'string' ? values.report : undefined;
  if (reportPath) writeFleetReport(fleet, reportPath);
  process.stdout.write(renderFleetOutput(fleet, output, reportPath));
  return fleetExitCode(fleet);
}
