/** What the CLI prints and writes for a fleet: the same three formats as for one run, and the JSON report file. */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { FleetReport } from '../model/fleet.js';
import { fleetJson } from '../report/fleet-json.js';
import { renderFleetSummary } from '../report/fleet-markdown.js';
import { renderFleetText } from '../report/fleet-text.js';
import { ConfigError } from '../shared/errors.js';
import type { OutputChoice } from './output.js';

/** The fleet as the chosen format renders it. */
export function renderFleetOutput(fleet: FleetReport, choice: OutputChoice, reportPath?: string): string {
  if (choice.format === 'json') return `${[...fleetJson(fleet)].join('')}\n`;
  if (choice.format === 'markdown') return renderFleetSummary(fleet, reportPath);
  return renderFleetText(fleet, { width: choice.width, color: choice.color, reportPath });
}

/** Write the fleet's JSON report to `file`, a piece at a time (thousands of targets are never one string). */
export function writeFleetReport(fleet: FleetReport, file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'w');
  } catch (error) {
    throw new ConfigError(
      `--report "${file}" cannot be written: ${(error as NodeJS.ErrnoException).code ?? error}.`,
      'report',
    );
  }
  try {
    for (const piece of fleetJson(fleet)) writeSync(fd, piece);
    writeSync(fd, '\n');
  } finally {
    closeSync(fd);
  }
}

/** The exit status for a fleet: 0 when the check passes, 1 when it fails. */
export const fleetExitCode = (fleet: FleetReport): number => (fleet.failures.length > 0 ? 1 : 0);
