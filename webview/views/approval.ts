// The commands an agent waits to run, in its column: "writer (agent1) waits for your approval: `npm test`", where it
// would run, and Allow / Allow for this run / Deny. These answer the same request as the notification (the host's
// approval queue owns it): a request answered there, or whose run or agent stopped, leaves with the next message.

import { agentName } from '../../src/protocol/agent-name';
import type { PendingApproval } from '../../src/protocol/messages';
import type { Badge } from '../derive';
import type { Host } from '../bridge';
import { button, h, icon, setHidden } from '../dom';

/** The column's status while a command waits: the agent is stopped on the user, not streaming. */
export const APPROVAL_BADGE: Badge = { kind: 'waiting', text: 'waiting for approval', icon: 'shield', title: 'A command of this agent waits for your approval' };

export class ApprovalView {
  readonly el = h('div', { class: 'approvals', attrs: { role: 'region', 'aria-label': 'Commands waiting for your approval' } });
  private key = '';

  constructor(private readonly host: Host) {
    setHidden(this.el, true);
  }

  /** Whether a command of this agent waits. */
  get waiting(): boolean {
    return this.key !== '';
  }

  /** This agent's waiting requests (oldest first). */
  update(requests: readonly PendingApproval[]): void {
    const key = requests.map((r) => r.id).join(',');
    if (key === this.key) return;
    this.key = key;
    setHidden(this.el, requests.length === 0);
    this.el.replaceChildren(...requests.map((r) => this.request(r)));
  }

  private request(r: PendingApproval): HTMLElement {
    const name = agentName({ id: r.agentId, label: r.label });
    const answer = (choice: 'allow' | 'allowRun' | 'deny') => () => {
      // One click per request: the buttons go quiet until the host's next list takes the request out.
      el.querySelectorAll('vscode-button').forEach((b) => b.setAttribute('disabled', ''));
      this.host.post({ type: 'approve', requestId: r.id, choice });
    };
    const where = r.sandboxed ? `Runs sandboxed in its copy of ${r.folder}: it can change only that copy.` : `No sandbox on this machine: it would run in its copy of ${r.folder} with your permissions.`;
    const el = h(
      'div',
      { class: `approval${r.sandboxed ? '' : ' unsandboxed'}`, attrs: { role: 'alert' } },
      h('div', { class: 'approval-head' }, icon('shield'), h('span', { text: `${name} waits for your approval:` })),
      h('code', { class: 'approval-command', text: r.command }),
      h('div', { class: 'approval-where', title: r.copy, text: where }),
      h(
        'div',
        { class: 'approval-buttons' },
        button('Allow', { icon: 'check', label: `Allow: ${name}`, title: `Run this command of ${name} once`, onClick: answer('allow') }),
        r.sandboxed ? button('Allow for this run', { secondary: true, label: `Allow for this run: ${name}`, title: 'Allow every sandboxed command of this run without asking again', onClick: answer('allowRun') }) : null,
        button('Deny', { secondary: true, icon: 'close', label: `Deny: ${name}`, title: 'The agent is told the command did not run', onClick: answer('deny') }),
      ),
    );
    el.dataset.request = r.id;
    return el;
  }
}
