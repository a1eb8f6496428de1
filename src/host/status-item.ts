// A status-bar item while a run is going: how far the latest run is ("MassGen · round 2 · 1/3 voted"); a click
// opens the vote viewer on it. While commands wait for the user's approval it counts them instead ("MassGen · 2
// approvals waiting", highlighted), and a click opens the viewer on the run of the oldest. Hidden when nothing runs.
// Repainted at most every 250 ms (streams emit many events); at once when the approvals change.

import * as vscode from 'vscode';
import type { RunState } from '../core/engine/run-state';
import type { RunManager } from './run/manager';

function progress(s: RunState): string {
  if (s.phase === 'presenting') return vscode.l10n.t('final answer');
  if (s.round === 0) return vscode.l10n.t('starting');
  const live = s.agents.filter((a) => a.status !== 'failed');
  const voted = live.filter((a) => a.currentVote).length;
  return s.answers.length === 1
    ? vscode.l10n.t('round {0} · 1 answer · {1}/{2} voted', s.round, voted, live.length)
    : vscode.l10n.t('round {0} · {1} answers · {2}/{3} voted', s.round, s.answers.length, voted, live.length);
}

export function runStatusItem(runs: RunManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('massgen.run', vscode.StatusBarAlignment.Left, 50);
  item.name = vscode.l10n.t('MassGen run');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const render = () => {
    clearTimeout(timer);
    timer = undefined;
    const active = runs.active;
    const run = active[active.length - 1];
    const waiting = runs.approvals.pending;
    if (waiting.length) {
      // The icon ($(name)) stays in the text: a translation keeps it where its language puts it.
      item.text = waiting.length === 1 ? vscode.l10n.t('$(bell-dot) MassGen · 1 approval waiting') : vscode.l10n.t('$(bell-dot) MassGen · {0} approvals waiting', waiting.length);
      item.tooltip = vscode.l10n.t('Agents wait for your approval to run commands. Click to answer in the vote viewer.');
      item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      item.command = { command: 'massgen.showVoteViewer', title: vscode.l10n.t('Open the vote viewer'), arguments: [{ runId: waiting[0].runId }] };
      item.show();
      return;
    }
    item.backgroundColor = undefined;
    if (!run) {
      item.hide();
      return;
    }
    item.text = vscode.l10n.t('$(sync~spin) MassGen · {0}', progress(run.state));
    const more = active.length - 1;
    item.tooltip =
      more === 0
        ? vscode.l10n.t('{0}. Click to open the vote viewer.', run.title)
        : more === 1
          ? vscode.l10n.t('{0} (and 1 more run). Click to open the vote viewer.', run.title)
          : vscode.l10n.t('{0} (and {1} more runs). Click to open the vote viewer.', run.title, more);
    item.command = { command: 'massgen.showVoteViewer', title: vscode.l10n.t('Open the vote viewer'), arguments: [{ runId: run.id }] };

    item.show();
  };
  const schedule = () => (timer ??= setTimeout(render, 250));
  const approvals = runs.approvals.onDidChange(render);
  const started = runs.onDidStart((run) => {
    render();
    run.subscribe((event) => event.type !== 'text_delta' && event.type !== 'reasoning_delta' && schedule());
    void run.result.finally(render);
  });
  return {
    dispose: () => {
      clearTimeout(timer);
      started.dispose();
      approvals.dispose();
      item.dispose();
    },
  };
}
