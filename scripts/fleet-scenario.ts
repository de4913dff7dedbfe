/** The fleet of the README picture: three clusters (one clean, one leaked, one unreachable), each run for real. */
import { mergeFleet } from '../src/fleet/merge.js';
import type { FleetReport } from '../src/model/fleet.js';
import type { RunContext } from '../src/model/run.js';
import { previewCluster, renamed, runCluster } from '../test/helpers/fleet.js';

/** Run the teardown of the previews of pull request 123 in three fake clusters, and merge the three reports. */
export async function runFleetScenario(context: RunContext): Promise<FleetReport> {
  const eu = previewCluster([123, 124]);
  const us = previewCluster([123, 125, 126], [123, 126]);
  const ap = previewCluster([123]);
  const started = [await eu.start(), await us.start(), await ap.start()];
  await ap.stop(); // its API server is gone: the run cannot reach it
  try {
    const inputs = { selector: 'preview.example.com/env=preview', timeout: '3s' };
    const reports = await Promise.all(
      (['eu-dev', 'us-dev', 'ap-dev'] as const).map((name, i) =>
        runCluster(renamed(started[i]!.kubeconfig, `kind-${name}`), { ...inputs, 'cluster-name': name }),
      ),
    );
    return mergeFleet({
      expected: ['eu-dev', 'us-dev', 'ap-dev'],
      found: reports.map((report) => ({
        source: `namespace-teardown-reports/${report.context.cluster?.name}.json`,
        checked: { report },
      })),
      failOn: 'leaked',
      context,
      now: Date.now(),
    });
  } finally {
    await Promise.all([eu.stop(), us.stop()]);
  }
}
