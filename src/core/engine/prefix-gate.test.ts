import { strict as assert } from 'node:assert';
import type { ModelRequest } from '../providers/types';
import { CACHE_POLICIES } from '../usage/cache';
import { FakeClock } from '../../../test/helpers/fake-clock';
import { PROMPT_CACHE_TTL_MS, SharedPrefixGate, sharedStart, sharedStartKey } from './prefix-gate';

const live = () => new AbortController().signal;
/** Lets every queued callback run: what was let go has gone by then. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Enters the gate and reports when it let the request go. */
function entered(gate: SharedPrefixGate, key: string, signal = live()) {
  const state = { gone: false, pass: undefined as Awaited<ReturnType<SharedPrefixGate['enter']>> | undefined };
  const done = gate.enter(key, signal).then((pass) => {
    state.gone = true;
    state.pass = pass;
    return pass;
  });
  return { state, done };
}

describe('SharedPrefixGate', () => {
  it('lets the first request with a start go at once and holds the others until its response begins', async () => {
    const gate = new SharedPrefixGate(60_000);
    const leader = await gate.enter('k', live());
    const a = entered(gate, 'k');
    const b = entered(gate, 'k');
    const other = entered(gate, 'another start');
    await tick();
    assert.deepEqual([a.state.gone, b.state.gone, other.state.gone], [false, false, true], 'a different start leads its own');
    leader.begun();
    await Promise.all([a.done, b.done]);
    const later = await gate.enter('k', live());
    assert.ok(later, 'a start whose leader began goes at once (the cache holds it)');
  });

  it('waits no longer than its limit, and not at all with a limit of 0', async () => {
    const clock = new FakeClock();
    const gate = new SharedPrefixGate(20, clock);
    await gate.enter('k', live());
    const a = entered(gate, 'k');
    await clock.advance(19);
    assert.equal(a.state.gone, false, 'still waiting before the limit');
    await clock.advance(1);
    assert.equal(a.state.gone, true, 'let go at the limit');
    const none = new SharedPrefixGate(0, clock);
    await none.enter('k', live());
    const b = entered(none, 'k');
    await tick();
    assert.equal(b.state.gone, true);
    assert.equal(clock.pending, 0, 'no timer was set');
  });

  it('stops waiting when the waiting request is cancelled', async () => {
    const gate = new SharedPrefixGate(60_000);
    await gate.enter('k', live());
    const cancel = new AbortController();
    const a = entered(gate, 'k', cancel.signal);
    await tick();
    assert.equal(a.state.gone, false);
    cancel.abort();
    await a.done;
  });

  it('a leader whose call ends without a response lets the others go and gives up the lead', async () => {
    const gate = new SharedPrefixGate(60_000);
    const leader = await gate.enter('k', live());
    const a = entered(gate, 'k');
    await tick();
    leader.ended(false);
    await a.done;
    // Nothing is cached: the next request with the start leads (others wait for it).
    const next = await gate.enter('k', live());
    const b = entered(gate, 'k');
    await tick();
    assert.equal(b.state.gone, false);
    next.ended(true);
    await b.done;
  });

  it('leads again once the cache has let the start expire', async () => {
    const clock = new FakeClock();
    const gate = new SharedPrefixGate(60_000, clock);
    (await gate.enter('k', live())).begun();
    await clock.advance(PROMPT_CACHE_TTL_MS + 1);
    await gate.enter('k', live());
    const a = entered(gate, 'k');
    await tick();
    assert.equal(a.state.gone, false, 'the new leader has not begun');
  });
});

describe('sharedStartKey', () => {
  const long = 'x'.repeat(4 * 1100);
  const request = (content: string, extra: Partial<ModelRequest> = {}, sharedChars?: number): ModelRequest => ({
    system: 'system',
    tools: [],
    messages: [{ role: 'user', content, ...(sharedChars === undefined ? {} : { sharedChars }) }],
    ...extra,
  });

  it('keys the tools, system prompt and first user turn up to its shared part, per backend', () => {
    const key = sharedStartKey(request(`${long} mine`, {}, long.length), 'b', CACHE_POLICIES.gemini);
    assert.ok(key);
    assert.equal(sharedStartKey(request(`${long} yours`, {}, long.length), 'b', CACHE_POLICIES.gemini), key, 'what follows the shared part is its own');
    assert.notEqual(sharedStartKey(request(`${long} mine`, {}, long.length), 'other backend', CACHE_POLICIES.gemini), key);
    assert.notEqual(sharedStartKey(request(`${long} mine`, { system: 'vote-only' }, long.length), 'b', CACHE_POLICIES.gemini), key);
    assert.notEqual(sharedStartKey(request(`${long} mine`), 'b', CACHE_POLICIES.gemini), key, 'unmarked: the whole turn');
    assert.equal(sharedStart(request(`${long} mine`, {}, long.length)), long);
  });

  it('has no key without a known cache, or under the cache minimum', () => {
    assert.equal(sharedStartKey(request(long), 'b', undefined), null);
    assert.equal(sharedStartKey(request('short task'), 'b', CACHE_POLICIES.anthropic), null);
    assert.equal(sharedStartKey({ system: 's', tools: [], messages: [] }, 'b', CACHE_POLICIES.anthropic), null);
  });
});
