/** The engine's Logger on @actions/core, for both actions: no line forms a workflow command or acts on a terminal. */
import * as core from '@actions/core';
import { safeLines, safeLog } from '../report/escape.js';
import type { Logger } from '../shared/ports.js';

/** A Logger on @actions/core; every line is kept from forming a workflow command or acting on a terminal. */
export const coreLogger: Logger = {
  info: (m) => core.info(safeLines(m)),
  warning: (m) => core.warning(safeLines(m)),
  debug: (m) => core.debug(safeLines(m)),
  group: (title, fn) => core.group(safeLog(title), fn),
};
