/** Status objects and API errors, shaped like k8s.io/apimachinery/pkg/api/errors. */

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

/** A failed API call: the Status to send and extra headers. */
export class ApiError extends Error {
  constructor(
    readonly status: Status,
    readonly headers: Record<string, string> = {},
  ) {
    super(status.message ?? status.reason ?? 'error');
    this.name = 'ApiError';
  }
  get code(): number {
    return this.status.code ?? 500;
  }
}

/** Build a Status with Go's field order and empty fields omitted. */
export function status(
  code: number,
  reason: string,
  message: string,
  details?: StatusDetails,
  outcome: 'Success' | 'Failure' = 'Failure',
): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: outcome };
  if (message) s.message = message;
  if (reason) s.reason = reason;
  if (details) s.details = cleanDetails(details);
  if (code) s.code = code;
  return s;
}

function cleanDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes?.length) out.causes = d.causes;
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

/** `resource.group`, or `resource` for the core group (schema.GroupResource.String()). */
export const qualified = (resource: string, group: string): string =>
  group ? `${resource}.${group}` : resource;

const fail = (s: Status, headers?: Record<string, string>): ApiError => new ApiError(s, headers);

export const notFound = (resource: string, group: string, name: string): ApiError =>
  fail(
    status(404, 'NotFound', `${qualified(resource, group)} "${name}" not found`, {
      name,
      group,
      kind: resource,
    }),
  );

export const alreadyExists = (resource: string, group: string, name: string, deleting: boolean): ApiError =>
  fail(
    status(
      409,
      'AlreadyExists',
      `${deleting ? 'object is being deleted: ' : ''}${qualified(resource, group)} "${name}" already exists`,
      { name, group, kind: resource },
    ),
  );

export const conflict = (resource: string, group: string, name: string, err: string): ApiError =>
  fail(
    status(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(resource, group)} "${name}": ${err}`,
      {
        name,
        group,
        kind: resource,
      },
    ),
  );

export const OPTIMISTIC_LOCK =
  'the object has been modified; please apply your changes to the latest version and try again';

export const forbidden = (
  resource: string,
  group: string,
  name: string,
  err: string,
  causes?: StatusCause[],
): ApiError => {
  const gr = qualified(resource, group);
  const message = name ? `${gr} "${name}" is forbidden: ${err}` : `${gr} is forbidden: ${err}`;
  return fail(status(403, 'Forbidden', message, { name, group, kind: resource, causes }));
};

export const badRequest = (message: string): ApiError => fail(status(400, 'BadRequest', message));

export const methodNotAllowed = (): ApiError =>
  fail(
    status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),
  );

export const routeNotFound = (): ApiError =>
  fail(status(404, 'NotFound', 'the server could not find the requested resource', {}));

export const internalError = (err: string): ApiError =>
  fail(status(500, 'InternalError', `Internal error occurred: ${err}`, { causes: [{ message: err }] }));

export const tooManyRequests = (retryAfterSeconds: number): ApiError =>
  fail(status(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds }), {
    'Retry-After': String(retryAfterSeconds),
  });

export const expired = (message: string): ApiError => fail(status(410, 'Expired', message));

export const notAcceptable = (message: string): ApiError => fail(status(406, 'NotAcceptable', message));

export const unsupportedMediaType = (accepted: string[]): ApiError =>
  fail(
    status(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    ),
  );

export const unauthorized = (): ApiError => fail(status(401, 'Unauthorized', 'Unauthorized'));

/** The generic "invalid request" 422 that JSON-patch application failures produce. */
export const unprocessable = (err: string): ApiError =>
  fail(
    status(422, 'Invalid', 'the server rejected our request due to an error in our request', {
      causes: [{ reason: 'UnexpectedServerResponse', message: err }],
    }),
  );

/** A field.Error from k8s.io/apimachinery/pkg/util/validation/field. */
export interface FieldError {
  type: 'Invalid' | 'Forbidden' | 'NotSupported' | 'Required';
  field: string;
  /** Already Go-formatted bad value (`"x"`, `0`, `[]string{"a"}`); omitted for Forbidden/Required. */
  value?: string;
  detail: string;
}

const TYPE_TEXT: Record<FieldError['type'], [string, string]> = {
  Invalid: ['Invalid value', 'FieldValueInvalid'],
  Forbidden: ['Forbidden', 'FieldValueForbidden'],
  NotSupported: ['Unsupported value', 'FieldValueNotSupported'],
  Required: ['Required value', 'FieldValueRequired'],
};

/** `Invalid value: "x": detail` (field.Error.ErrorBody). */
export function errorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type][0];
  if (e.value !== undefined && (e.type === 'Invalid' || e.type === 'NotSupported')) s += `: ${e.value}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** Go's %q for a string. */
export const goQuote = (s: string): string => JSON.stringify(s);

/** Go's %#v for a []string. */
export const goStringSlice = (xs: string[]): string => `[]string{${xs.map(goQuote).join(', ')}}`;

/** ValidateDryRun: `All` is the only value a dryRun parameter may hold (empty = not a dry run). */
export function dryRunErrors(values: string[]): FieldError[] {
  if (values.every((v) => v === 'All')) return [];
  return [
    {
      type: 'NotSupported',
      field: 'dryRun',
      value: goStringSlice(values),
      detail: 'supported values: "All"',
    },
  ];
}

/**
 * The dryRun query parameter of a create, update or patch, validated as its options are (`CreateOptions`,
 * `UpdateOptions`, `PatchOptions`: a 422 naming them); true when it asks for a dry run.
 */
export function dryRunOf(query: URLSearchParams, options: string): boolean {
  const values = query.getAll('dryRun');
  const errs = dryRunErrors(values);
  if (errs.length) throw invalid(options, 'meta.k8s.io', '', errs);
  return values.includes('All');
}

/** 422 `<Kind>[.<group>] "<name>" is invalid: <errs>`; the message dedups, the causes do not. */
export function invalid(kind: string, group: string, name: string, errs: FieldError[]): ApiError {
  const msgs = [...new Set(errs.map((e) => `${e.field}: ${errorBody(e)}`))];
  const agg = msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
  const causes = errs.map((e) => ({ reason: TYPE_TEXT[e.type][1], message: errorBody(e), field: e.field }));
  return fail(
    status(422, 'Invalid', `${qualified(kind, group)} "${name}" is invalid: ${agg}`, {
      name,
      group,
      kind,
      causes,
    }),
  );
}
