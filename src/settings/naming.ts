/** How an error names an input: the action's `Input "timeout"`, the command line's `--timeout`. Pure. */
import { ConfigError } from '../shared/errors.js';

/** Words for an input in a message about it. */
export interface Naming {
  /** The input as the subject of a sentence: `Input "timeout"`, `--timeout`, `GITHUB_TOKEN`. */
  input(name: string): string;
  /** The input mentioned in passing: `"timeout"`, `--timeout`. */
  ref(name: string): string;
  /** The input set to a value: `"sweep: plan"`, `--sweep plan`. */
  setting(name: string, value: string): string;
}

/** The action's words: inputs as action.yml names them. */
export const ACTION_NAMING: Naming = {
  input: (name) => `Input "${name}"`,
  ref: (name) => `"${name}"`,
  setting: (name, value) => `"${name}: ${value}"`,
};

/** Several input errors as one, each on a line of its own; the first input is the one named. */
export class InputProblems extends ConfigError {
  constructor(readonly errors: readonly ConfigError[]) {
    const lines = errors.map((e) => `  - ${e.message}`).join('\n');
    super(`${errors.length} problems with the input:\n${lines}`, errors[0]?.input);
  }
}

/** Collects input errors so that every one is reported at once, not only the first. */
export class Problems {
  readonly errors: ConfigError[] = [];

  /** `read()`, or `fallback` after noting the ConfigError it threw. */
  take<T>(read: () => T, fallback: T): T {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.errors.push(...(error instanceof InputProblems ? error.errors : [error]));
      return fallback;
    }
  }

  /** Throw every error noted, as one. */
  throwAny(): void {
    if (this.errors.length === 1) throw this.errors[0]!;
    if (this.errors.length > 1) throw new InputProblems(this.errors);
  }
}
