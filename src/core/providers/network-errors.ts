// Why a connection failed, in words a user can act on; shared by the SDK-based providers.

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

/** Walks the cause chain (SDK error → undici "fetch failed" → system error) for the most telling reason. */
export function describeNetworkCause(error: unknown): string {
  let deepest = '';
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_REASONS[code]) return NETWORK_REASONS[code];
    if (typeof code === 'string' && /^(CERT_|ERR_TLS|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return `TLS error (${code})`;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message) deepest = message;
  }
  return deepest || 'connection failed';
}
