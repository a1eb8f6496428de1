// The HTTP error contract of the SDK-based providers (OpenAI-compatible, Anthropic): how a failed request becomes a
// ProviderError, worded for the user and classified for the engine's retry policy. It names neither SDK, so a run
// that uses one SDK never loads the other. Each provider supplies only what is its own: its SDK's error classes and
// the shape of its servers' error bodies.
import { randomUUID } from 'node:crypto';
import { ProviderError, type ProviderErrorKind } from './types';
import { hideUrlSecrets } from '../util/url';

// The SDK's timeout only covers the wait for response headers (it is cleared once the stream starts), so it must
// allow for a local model's slow prompt processing. Stalls mid-stream are the engine's turn timeout to catch.
export const HEADERS_TIMEOUT_MS = 5 * 60_000;

// The SDKs throw without a key (Anthropic's would go looking in the environment and in profile files); local
// servers and keyless gateways ignore it.
export const PLACEHOLDER_KEY = 'not-needed';

/** An id for a tool call the server sent without one, e.g. `call_…` or `toolu_…`. */
export function callId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/** `message` with every occurrence of the key replaced by `***`. */
export function redact(message: string, key: string | undefined): string {
  // Guard short keys: replacing a one-letter "key" would mangle the message without protecting anything.
  return key && key.length >= 8 ? message.split(key).join('***') : message;
}

/** Milliseconds from `retry-after-ms`, or `retry-after` as seconds or an HTTP date. */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

interface StatusRule {
  kind: ProviderErrorKind;
  /** What the server did, between "<model> @ <url>" and its own message. */
  did: (status: number) => string;
}

const withStatus = (what: string): StatusRule['did'] => (status) => `${what} (HTTP ${status})`;
const AUTH: StatusRule = { kind: 'auth', did: withStatus('refused the credentials') };
const INVALID: StatusRule = { kind: 'invalid_request', did: withStatus('rejected the request') };
const SERVER: StatusRule = { kind: 'server', did: withStatus('failed') };
const OTHER: StatusRule = { kind: 'unknown', did: (status) => `answered HTTP ${status}` };

/** Every status a provider classifies; other 5xx are server failures, anything else is unknown. */
const STATUS_RULES: Readonly<Record<number, StatusRule>> = {
  400: INVALID,
  401: AUTH,
  402: { kind: 'auth', did: withStatus('refused the request for billing reasons') },
  403: AUTH,
  404: { kind: 'invalid_request', did: () => 'returned HTTP 404' },
  408: SERVER,
  409: SERVER,
  413: INVALID,
  422: INVALID,
  429: { kind: 'rate_limit', did: withStatus('is rate limiting') },
  // Anthropic's "overloaded": worth waiting for, like a rate limit.
  529: { kind: 'rate_limit', did: withStatus('is overloaded') },
};

function ruleFor(status: number): StatusRule {
  return STATUS_RULES[status] ?? (status >= 500 ? SERVER : OTHER);
}

/** How a status is classified; also for error bodies that name the status they stand for. */
export function kindForStatus(status: number): ProviderErrorKind {
  return ruleFor(status).kind;
}

/** How llama.cpp says its chat parser could not read the model's reply; the reply itself follows. */
const UNPARSED_OUTPUT = /^Failed to parse input at pos \d+:\s*/;

/**
 * The error for a server's report that it could not parse the model's own reply (llama.cpp answers HTTP 500, or sends
 * an error event in a stream that had begun, `status` undefined), with the quoted reply as `output`; undefined for
 * any other message.
 */
export function unparsedOutputError(at: string, serverMessage: string, status?: number): ProviderError | undefined {
  const match = UNPARSED_OUTPUT.exec(serverMessage);
  if (!match) return undefined;
  const http = status === undefined ? '' : ` (HTTP ${status})`;
  return new ProviderError('unparsed_output', `${at} could not parse the model's reply${http}: ${serverMessage}`, {
    ...(status !== undefined ? { status } : {}),
    output: serverMessage.slice(match[0].length),
  });
}

/**
 * The error for an HTTP status. `at` names the model and server, `serverMessage` is the server's explanation, already
 * redacted; `baseUrlHint` ends the model-or-base-URL advice a 404 gets.
 * No `cause`: the SDK error carries the server's message, which may echo the key.
 */
export function statusError(status: number, at: string, serverMessage: string, headers: Headers | undefined, baseUrlHint = ''): ProviderError {
  const unparsed = status >= 500 ? unparsedOutputError(at, serverMessage, status) : undefined;
  if (unparsed) return unparsed;
  const rule = ruleFor(status);
  const advice = status === 404 ? ` (check that the model name and the base URL are right${baseUrlHint})` : '';
  const retryAfterMs = parseRetryAfter(headers);
  return new ProviderError(rule.kind, `${at} ${rule.did(status)}: ${serverMessage}${advice}`, {
    status,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

/** A class the SDK exports, as `instanceof` needs it. */
type ErrorClass<E extends Error = Error> = abstract new (...args: never[]) => E;

/** How one provider's failures are read: its SDK's error classes, and what it alone knows about status errors. */
export interface SdkErrors<E extends Error> {
  /** Both SDKs export these four; the timeout is also a connection error, so it is tested first. */
  classes: { userAbort: ErrorClass; connectionTimeout: ErrorClass; connection: ErrorClass; api: ErrorClass<E> };
  /** The base URL, naming where the request went. */
  where: string;
  /** The API key, cut out of every message built from text the server or the parser produced. */
  key: string | undefined;
  /** What the stream is made of: OpenAI's chunks, Anthropic's events. */
  streamUnit: 'chunk' | 'event';
  /** A status error (an HTTP status, or an error object sent after a 200) as a ProviderError. */
  fromApiError: (error: E) => ProviderError;
}

/** Any failure of one request as a ProviderError; `signal` is the caller's, whose abort outranks any other reading. */
export function toProviderError<E extends Error>(error: unknown, signal: AbortSignal, sdk: SdkErrors<E>): ProviderError {
  if (error instanceof ProviderError) return error;
  const { classes, where } = sdk;
  if (signal.aborted || error instanceof classes.userAbort) {
    return new ProviderError('aborted', `request to ${where} was aborted`);
  }
  if (error instanceof classes.connectionTimeout) {
    return unreachable('network', where, `no response within ${HEADERS_TIMEOUT_MS / 1000}s`, error);
  }
  if (error instanceof classes.connection) return unreachableError(where, error);
  if (error instanceof classes.api) return sdk.fromApiError(error);
  if (error instanceof SyntaxError) {
    return new ProviderError('unknown', `malformed stream ${sdk.streamUnit} from ${where}: ${redact(error.message, sdk.key)}`, { cause: error });
  }
  // Anything else surfaced while reading the body (undici's "terminated", ECONNRESET): the connection dropped.
  return new ProviderError('stream_cut', `stream from ${where} was cut: ${describeNetworkCause(error)}`, { cause: error });
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/**
 * Node's fetch refuses some ports outright (the WHATWG "bad ports": 9, 6000, 6667…) with a bare "bad port": say that
 * in words; no retry can help, so it is not a network error the engine would retry.
 */
function refusedPort(error: unknown, where: string): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { message?: unknown }).message !== 'bad port') continue;
    let port = '';
    try {
      port = new URL(where).port;
    } catch {
      // `where` is a URL for every provider; without one the sentence still holds.
    }
    return `port ${port || 'in the URL'} is one the network library refuses to use; pick another port`;
  }
  return undefined;
}

/** A request that never reached the server at `where`, as a ProviderError: "cannot reach URL: why". */
export function unreachableError(where: string, error: unknown): ProviderError {
  const port = refusedPort(error, where);
  if (port) return unreachable('invalid_request', where, port, error);
  return unreachable('network', where, describeNetworkCause(error), error);
}

function unreachable(kind: ProviderErrorKind, url: string, reason: string, cause: unknown): ProviderError {
  return new ProviderError(kind, `cannot reach ${url}: ${reason}`, { cause, unreachable: { url, reason } });
}

/** Why a connection failed, in words a user can act on: the most telling reason along the cause chain. */
export function describeNetworkCause(error: unknown): string {
  let deepest = '';
  // SDK error → undici "fetch failed" → system error.
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_REASONS[code]) return NETWORK_REASONS[code];
    if (typeof code === 'string' && /^(CERT_|ERR_TLS|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return `TLS error (${code})`;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message) deepest = message;
  }
  return deepest ? hideUrlSecrets(deepest) : 'connection failed';
}
