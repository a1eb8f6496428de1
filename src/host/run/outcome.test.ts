import assert from 'node:assert/strict';
import { englishL10n } from '../../../test/fakes/vscode-lm';
import { endingNote, noAnswer } from './outcome';

const english = { t: englishL10n };
/** Marks every sentence that went through l10n.t, to show none is left out. */
const marked = { t: (m: string, ...args: Array<string | number | boolean>) => `«${englishL10n(m, ...args)}»` };

const failed = (unreachable: { url: string; reason: string } | null) => ({ status: 'failed' as const, unreachable });

describe('outcome wording (notifications and chat)', () => {
  it('a cancel reads as the user\'s own choice and proposes no answer', () => {
    assert.equal(endingNote('cancelled', {}, english), undefined);
    assert.deepEqual(noAnswer('cancelled', 'Cancelled before any agent answered.', [], english), { text: 'You cancelled the run, so no answer was chosen.', isError: false });
    assert.deepEqual(noAnswer('cancelled', 'Cancelled: no answer was chosen (the answers so far are kept).', [], english), { text: 'You cancelled the run, so no answer was chosen.', isError: false });
  });

  it('consensus needs no note; a failure is an error in its own words', () => {
    assert.equal(endingNote('consensus', {}, english), undefined);
    assert.equal(endingNote('consensus', { tieBreak: true }, english), 'the votes tied, so agent order decided', 'a tie is not a consensus');
    assert.equal(endingNote('consensus', { failed: 2, agents: 3 }, english), 'agreed by the 1 agent left (2 of 3 failed)');
    assert.equal(endingNote('consensus', { failed: 1, agents: 3 }, english), undefined, 'two agents agreeing is a consensus');
    assert.deepEqual(noAnswer('all_failed', 'Every agent failed.', [], english), { text: 'No answer: Every agent failed.', isError: true });
    assert.ok(!/ended by|_/.test(endingNote('max_rounds', {}, english) ?? ''));
  });

  it('servers that cannot be reached are one line with their URLs, not a failure per agent', () => {
    const port9 = { url: 'http://localhost:9/v1', reason: 'port 9 is one the network library refuses to use; pick another port' };
    const down = noAnswer('all_failed', 'Every agent failed.\n  a: …\n  b: …', [failed(port9), failed(port9)], english);
    assert.deepEqual(down, { text: `No answer: cannot reach ${port9.url}: ${port9.reason}.`, isError: true, serverDown: true });
    const two = noAnswer('all_failed', 'Every agent failed.', [failed({ url: 'http://a:1/v1', reason: 'connection refused' }), failed({ url: 'http://b:2/v1', reason: 'connection refused' })], english);
    assert.equal(two.text, 'No answer: cannot reach http://a:1/v1, http://b:2/v1: connection refused.');
    const mixed = noAnswer('all_failed', 'Every agent failed.\n  a: x\n  b: y', [failed({ url: 'http://a:1/v1', reason: 'connection refused' }), failed(null)], english);
    assert.equal(mixed.serverDown, undefined, 'another failure keeps the per-agent lines');
  });

  it('every sentence goes through l10n.t', () => {
    assert.equal(endingNote('timeout', {}, marked), '«the time limit was reached, so the best answer so far won»');
    assert.equal(endingNote('consensus', { failed: 2, agents: 3 }, marked), '«agreed by the 1 agent left (2 of 3 failed)»');
    assert.equal(noAnswer('cancelled', undefined, [], marked).text, '«You cancelled the run, so no answer was chosen.»');
    const down = { url: 'http://a:1/v1', reason: 'connection refused' };
    assert.equal(noAnswer('all_failed', 'x', [failed(down)], marked).text, '«No answer: «cannot reach http://a:1/v1: connection refused».»');
  });
});
