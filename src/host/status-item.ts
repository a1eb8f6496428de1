// A status-bar item while a run is going: how far the latest run is ("MassGen · round 2 · 1/3 voted"); a click
// opens the vote viewer on it. Hidden when nothing runs. Repainted at most every 250 ms (streams emit many events).

import * as vscode from 'vscode';
import type { RunState } from '../core/engine/run-state';
import type { RunManager } from './run/manager';

function progress(s: RunState): string {
  if (s.phase === 'presenting') return 'final answer';
  if (s.round === 0) return 'starting';
  const live = s.agents.filter((a) => a.status !== 'failed');
  const voted = live.filter((a) => a.currentVote).length;
  return `round ${s.round} · ${s.answers.length} answer${s.answers.length === 1 ? '' : 's'} · ${voted}/${live.length} voted`;
}

export function runStatusItem(runs: RunManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('massgen.run', vscode.StatusBarAlignment.Left, 50);
  item.name = 'MassGen run';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const render = () => {
    timer = undefined;
    const active = runs.active;
    const run = active[active.length - 1];
    if (!run) {
      item.hide();
      return;
    }
    item.text = `$(sync~spin) MassGen · ${progress(run.state)}`;
    item.tooltip = `${run.title}${active.length > 1 ? ` (and ${active.length - 1} more run${active.length > 2 ? 's' : ''})` : ''}. Click to open the vote viewer.`;
    item.command = { command: 'massgen.showVoteViewer', title: 'Open the vote viewer', arguments: [{ runId: run.id }] };
    item.show();
  };
  const schedule = () => (timer ??= setTimeout(render, 250));
  const started = runs.onDidStart((run) => {
    render();
    run.subscribe((event) => event.type !== 'text_delta' && event.type !== 'reasoning_delta' && schedule());
    void run.result.finally(render);
  });
  return {
    dispose: () => {
      clearTimeout(timer);
      started.dispose();
      item.dispose();
    },
  };
}
