import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_IDS, isChatResultMeta, PANEL_VIEW_TYPE, PARTICIPANT_ID, VIEW_ID } from './ids';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));

describe('ids: the activation shell registers what package.json contributes', () => {
  it('every contributed command, and no other', () => {
    const contributed = (manifest.contributes.commands as { command: string }[]).map((c) => c.command);
    assert.deepEqual([...COMMAND_IDS].sort(), [...contributed].sort());
  });

  it('the chat participant, the view and the panel activation event', () => {
    assert.ok((manifest.contributes.chatParticipants as { id: string }[]).some((p) => p.id === PARTICIPANT_ID), `${PARTICIPANT_ID} is contributed`);
    const views = Object.values(manifest.contributes.views as Record<string, { id: string }[]>).flat();
    assert.ok(views.some((v) => v.id === VIEW_ID), `${VIEW_ID} is contributed`);
    assert.ok((manifest.activationEvents as string[]).includes(`onWebviewPanel:${PANEL_VIEW_TYPE}`), 'the panel restores after a reload');
  });
});

describe('ids: chat result metadata read back from history', () => {
  it('accepts what the participant writes and refuses other shapes', () => {
    assert.ok(isChatResultMeta({ runId: 'r1', winner: 'gpt' }));
    assert.ok(isChatResultMeta({ runId: 'r1', winner: null }));
    assert.ok(isChatResultMeta({ command: 'agents' }));
    assert.ok(isChatResultMeta({ runId: 'r1', winner: 'gpt', answer: 'Paris.' }));
    for (const bad of [undefined, null, 'r1', { runId: 7 }, { winner: 3 }, { command: ['x'] }, { answer: 1 }]) assert.equal(isChatResultMeta(bad), false, JSON.stringify(bad));
  });
});
