/** What an exec credential plugin prints, read without ever quoting it: its stdout holds the credential. Pure. */

/** The `exec` section of a kubeconfig user, as client-node loads it. */
export interface ExecConfig {
  command?: string;
  args?: unknown[];
  env?: { name?: unknown; value?: unknown }[] | null;
  apiVersion?: string;
}

/** The part of an ExecCredential's status a request uses. */
export interface Credential {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** Epoch ms of `expirationTimestamp`; undefined = valid for the whole run. */
  expiresAt?: number;
}

/** Lines of a plugin's error output kept for the log, and the longest a kept line may be. */
export const OUTPUT_LINES = 5;
export const OUTPUT_LINE_CHARS = 200;

/**
 * The credential in a plugin's standard output, or undefined when it holds none (not JSON, no status, neither a token
 * nor a client certificate and key). Never throws: JSON.parse's message would quote the text, and the text is secret.
 */
export function parseCredential(stdout: string): Credential | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  const status = (parsed as { status?: Record<string, unknown> } | null)?.status;
  if (!status || typeof status !== 'object') return undefined;
  const text = (k: string): string | undefined =>
    typeof status[k] === 'string' && status[k] !== '' ? (status[k] as string) : undefined;
  const credential: Credential = {
    token: text('token'),
    clientCertificateData: text('clientCertificateData'),
    clientKeyData: text('clientKeyData'),
  };
  const expires = text('expirationTimestamp');
  if (expires !== undefined && !Number.isNaN(Date.parse(expires))) credential.expiresAt = Date.parse(expires);
  const certificate = credential.clientCertificateData && credential.clientKeyData;
  return credential.token || certificate ? credential : undefined;
}

/** The last OUTPUT_LINES non-blank lines of a text, without control characters. */
export function lastLines(text: string): string[] {
  return (
    text
      .split(/\r?\n|\r/)
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .map((l) => l.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trimEnd())
      .filter((l) => l.trim() !== '')
      .slice(-OUTPUT_LINES)
  );
}

/** A line cut to OUTPUT_LINE_CHARS characters, saying it was cut. */
export function cutOutput(line: string): string {
  return line.length <= OUTPUT_LINE_CHARS ? line : `${line.slice(0, OUTPUT_LINE_CHARS - 1)}…`;
}
