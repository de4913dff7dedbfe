/** "The user configured it wrong", as opposed to "something failed": reported without a stack trace. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly input?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The message of an Error, or the thrown value as text: for whatever a `catch` receives. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
