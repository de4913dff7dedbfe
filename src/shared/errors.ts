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
