import assert from 'node:assert/strict';
import { callId, parseRetryAfter, redact, statusError, toProviderError, unparsedOutputError, unreachableError, type SdkErrors } from './http-errors';
import { ProviderError } from './types';

describe('provider HTTP errors', () => {
  it('classifies every status one way for both SDK providers', () => {
    const kinds = {
      auth: [401, 402, 403],
      invalid_request: [400, 404, 413, 422],
      rate_limit: [429, 529],
      server: [408, 409, 500, 502, 503, 504],
      unknown: [302, 418],
    };
    for (const [kind, statuses] of Object.entries(kinds)) {
      for (const status of statuses) {
        const error = statusError(status, 'm @ http://x', 'why', undefined);
        assert.equal(error.kind, kind, String(status));
        assert.equal(error.status, status);
        assert.ok(error.message.startsWith('m @ http://x ') && error.message.includes(`HTTP ${status}`) && error.message.includes(': why'), error.message);
      }
    }
  });

  it('words a 404 as a model or base URL to check, with the caller’s hint, and takes retry-after', () => {
    assert.equal(
      statusError(404, 'm @ http://x', 'no such model', undefined, '; did you mean http://x/v1?').message,
      'm @ http://x returned HTTP 404: no such model (check that the model name and the base URL are right; did you mean http://x/v1?)',
    );
    assert.equal(statusError(429, 'm @ http://x', 'slow down', new Headers({ 'retry-after': '3' })).retryAfterMs, 3000);
    assert.equal(statusError(429, 'm @ http://x', 'slow down', new Headers()).retryAfterMs, undefined);
  });

  it("takes a server's report that it could not parse the model's reply for the model's output (llama.cpp), on 5xx only", () => {
    const unparsed = statusError(500, 'm @ http://x', 'Failed to parse input at pos 7: <tool_call>{"name"', undefined);
    assert.equal(unparsed.kind, 'unparsed_output');
    assert.equal(unparsed.retryable, false);
    assert.equal(unparsed.output, '<tool_call>{"name"');
    assert.equal(statusError(400, 'm @ http://x', 'Failed to parse input at pos 7: x', undefined).kind, 'invalid_request');
    assert.equal(statusError(500, 'm @ http://x', 'Failed to load model', undefined).kind, 'server');
    assert.equal(unparsedOutputError('m @ http://x', 'the input was fine'), undefined);
  });

  it('parses retry-after given as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now), 30_000);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now), undefined);
    assert.equal(parseRetryAfter(new Headers(), now), undefined);
  });

  it('redacts the key, but not a key too short to be one', () => {
    assert.equal(redact('bad key sk-0123456789, really sk-0123456789', 'sk-0123456789'), 'bad key ***, really ***');
    assert.equal(redact('a bad answer', 'a'), 'a bad answer');
    assert.equal(redact('no key', undefined), 'no key');
  });

  it('says in words that fetch refuses a port (9, 6000…), and does not retry it; names the server it could not reach', async () => {
    const refused = await fetch('http://127.0.0.1:9/v1').then(() => undefined, (e: unknown) => e);
    const err = unreachableError('http://127.0.0.1:9/v1', refused);
    assert.equal(err.message, 'cannot reach http://127.0.0.1:9/v1: port 9 is one the network library refuses to use; pick another port');
    assert.equal(err.retryable, false);
    assert.deepEqual(err.unreachable, { url: 'http://127.0.0.1:9/v1', reason: 'port 9 is one the network library refuses to use; pick another port' });
    const down = unreachableError('http://localhost:1/v1', Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }));
    assert.equal(down.kind, 'network');
    assert.deepEqual(down.unreachable, { url: 'http://localhost:1/v1', reason: 'connection refused' });
    assert.equal(statusError(401, 'openai/m @ http://x/v1', 'bad key', undefined).unreachable, undefined);
  });

  it('makes tool-call ids with the provider’s prefix', () => {
    assert.match(callId('toolu'), /^toolu_[0-9a-f]{24}$/);
    assert.notEqual(callId('call'), callId('call'));
  });

  describe('toProviderError', () => {
    class UserAbort extends Error {}
    class Connection extends Error {}
    class ConnectionTimeout extends Connection {}
    class Api extends Error {}
    const key = 'sk-SECRET-0123456789';
    const sdk: SdkErrors<Api> = {
      classes: { userAbort: UserAbort, connectionTimeout: ConnectionTimeout, connection: Connection, api: Api },
      where: 'http://x',
      key,
      streamUnit: 'chunk',
      fromApiError: (error) => new ProviderError('server', `api: ${error.message}`),
    };
    const live = new AbortController().signal;

    it('reads each SDK error class, a status error through the provider', () => {
      assert.equal(toProviderError(new UserAbort(), live, sdk).kind, 'aborted');
      const timeout = toProviderError(new ConnectionTimeout(), live, sdk);
      assert.equal(timeout.kind, 'network');
      assert.equal(timeout.message, 'cannot reach http://x: no response within 300s');
      const refused = toProviderError(new Connection('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }), live, sdk);
      assert.equal(refused.message, 'cannot reach http://x: connection refused');
      assert.equal(toProviderError(new Api('teapot'), live, sdk).message, 'api: teapot');
      const own = new ProviderError('auth', 'mine');
      assert.equal(toProviderError(own, live, sdk), own);
    });

    it('puts the caller’s abort first, and takes anything unknown for a cut stream', () => {
      assert.equal(toProviderError(new Api('late'), AbortSignal.abort(), sdk).kind, 'aborted');
      const cut = toProviderError(new TypeError('terminated'), live, sdk);
      assert.equal(cut.kind, 'stream_cut');
      assert.equal(cut.message, 'stream from http://x was cut: terminated');
    });

    it('names a malformed stream without the key', () => {
      const error = toProviderError(new SyntaxError(`Unexpected token in "${key}"`), live, sdk);
      assert.equal(error.kind, 'unknown');
      assert.equal(error.message, 'malformed stream chunk from http://x: Unexpected token in "***"');
    });
  });
});
