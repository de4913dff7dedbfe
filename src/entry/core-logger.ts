/** The engine's Logger on @actions/core, for both actions: every line is kept from forming a workflow command. */
import * as core from '@actions/core';
import { breakCommands } from '../report/escape.js';
import type { Logger } from '../shared/ports.js';

/** A Logger on @actions/core; every line is kept from forming a workflow command. */
export const coreLogger: Logger = {
  info: (m) => core.info(breakCommands(m)),
  warning: (m) => core.warning(breakCommands(m)),
  debug: (m) => core.debug(breakCommands(m)),
  group: (title, fn) => core.group(breakCommands(title), fn),
};
