// The vote viewer's wire protocol: one message map per direction, zod-validated on both sides (an invalid message
// is logged and dropped). Version 1: `requestDiff` and `diff` were added to it rather than bumping it, since host and
// page always ship together in one VSIX and either side drops (and logs) a message type it does not know.
//
// host → webview
//   snapshot  the whole projection of one run (or none: the empty state), the runs list and the setup. Sent on
//             `ready`, on `resync`, when the shown run changes. Resets the delta cursor to run.view.state.lastSeq.
//   delta     engine events `from`..`to` (RunEvent seq numbers, gap-free per run), coalesced on the host: text
//             deltas of one agent merged, so a batch may hold fewer events than to - from + 1. The webview applies
//             them with the engine's reducer (applyViewEvent) and asks for a snapshot when `from` is not its
//             lastSeq + 1.
//   head      the last seq sent for the shown run, a second after the last delta: a webview that lost the final
//             delta of a burst (nothing follows it to reveal the gap) notices it here and asks for a snapshot.
//   history   the runs list changed (a run started or ended).
//   setup     the team the next run would use changed (settings, the config file, chat models, keys).
//   pending   the run about to start that waits for the user's answer about checks (null: none; snapshots carry it).
//   apply     what can be done with the shown run's winner changed (it was previewed, applied, undone).
//   notice    a short message to show (e.g. "Copied").
//   diff      the reply to `requestDiff`: the unified patch of one answer version of a workspace run, at most
//             MAX_PATCH_CHARS (cut at a line end, `truncated` and a note say so), or null with a note saying why
//             (a stored past run, a run without a workspace, an unknown version).
//   noteRefused  a `note` could not be sent (the run ended, the agent failed, no such agent): `text` says why, and the
//             page's note box for `agentId` (or for every agent) stops waiting for it; the text is still in the box.
//   escalateRefused  an `escalate` called no stage (none is left, one is on its way, the run ended): `text` says why.
//   approvals every command approval waiting in this window (any run), oldest first; sent after each snapshot and
//             whenever the queue changes. The page shows those of the shown run in their agents' columns.
// webview → host
//   ready     the page (re)loaded: send a snapshot of `want` (a run id, or the latest when follow).
//   resync    a delta gap was detected: send a snapshot.
//   select    show another run (null = follow the latest).
//   home      show the start page (what MassGen is, the next run's team) until a new run starts.
//   cancelRun / cancelAgent, action (preview | apply | undo | discard | copy | openLog), start (chat | selection |
//   settings | setApiKey | openConfig), openLink (https only, checked again on the host), openPanel, log (webview
//   errors into the host log).
//   requestDiff  the patch of answer version `version` (`agentK.M`) of a run; asked once per version.
//   note      the user's note to every live agent of a running run, or to one (`agentId`): the agents it is for
//             judge again having seen it; `changesTask` (the user's explicit choice) also says the task changed. It
//             shows up as a `note_added` event (then `note_undelivered` if the run ends, or the final answer is being
//             written, before it reaches them); a note that cannot be sent (the run ended, no such agent) comes back
//             as `noteRefused`.
//   answerNow end a running run now with the best current answer (end reason user_stop).
//   escalate  call the next escalation stage of a running run now (its agents join at the next round, reason
//             `user_note`); it shows up as a `stage_started` event, or comes back as `escalateRefused`.
//   approve   the user's answer to approval `requestId` (from `approvals`); one already answered elsewhere (the
//             notification), or whose run or agent stopped, is ignored.
//   continueWithNote  start a follow-up run with note `noteId` of run `runId`, one that reached no agent
//             (`note_undelivered`); a follow-up that cannot start comes back as a `notice`.
//   checksAnswer  the answer to a pending run's question: use its test command as a check (saved for every run) or not.

// `zod/v4-mini`, the path the MCP SDK imports: through `zod/mini` the runtime bundle initialised zod lazily on one
// path and not on the other, and crashed at load (test/integration/bundles.test.ts).
import * as z from 'zod/v4-mini';
import { RunEventSchema, RunViewSchema } from './schema';

export const PROTOCOL_VERSION = 1;
const v = z.literal(PROTOCOL_VERSION);
const str = z.string();
const num = z.number();
const bool = z.boolean();

/** Run ids are ours (UUIDs) or, for stored runs, the same; bounded so a hostile page cannot send megabytes. */
const id = z.string().check(z.minLength(1), z.maxLength(200));

/** A note's text at most (characters): a note is a steer, not a document; the page stops typing there too. */
export const MAX_NOTE_CHARS = 4000;

/** Patch text sent in one `diff` message at most (characters): a bigger patch is cut at a line end. */
export const MAX_PATCH_CHARS = 512 * 1024;

export const HistoryEntrySchema = z.object({
  id: str,
  title: str,
  question: str,
  startedAt: str,
  endReason: z.nullable(str),
  winnerLabel: z.nullable(str),
  agents: num,
  costUsd: num,
  unpricedCalls: num,
  totalTokens: num,
  /** The run is in this window's memory (not only on disk): its actions (preview, apply, cancel) work. */
  live: bool,
  running: bool,
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** An API key's environment variable name (never a key: keys do not leave the host). */
const envVar = z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/));

export const SetupSchema = z.object({
  /** Where the next run's team comes from: a YAML file, the `massgen.agents` setting, or the VS Code chat models. */
  source: z.enum(['file', 'settings', 'chat-models']),
  /** The same in words: "`.massgen/config.yaml`", "massgen.agents in your User settings", "your VS Code chat models". */
  from: str,
  /** The agents that would run (id, provider, model only; chat models: the ones available now). */
  agents: z.array(z.object({ id: str, provider: str, model: str })),
  /** What stops a run from starting, in words, and the action that fixes it; null when a run can start. */
  problem: z.nullable(z.object({ text: str, fix: z.enum(['setApiKey', 'settings', 'openConfig']), envVar: z.optional(envVar) })),
  /** Whether a VS Code chat model is available: the @massgen chat participant needs one (unset: not known). */
  chatModel: z.optional(bool),
});
export type Setup = z.infer<typeof SetupSchema>;

/**
 * What can be done with a run's winner in the editor. none: nothing to apply it to (a question in chat, a past run);
 * noCode: the winner has no code for the file (`note` says why); ready: it can be reviewed; previewing: its diff is
 * open, Apply writes it; applied: written, Undo restores. `target` names the place ("sample.py", "3 files").
 */
export const ApplyStateSchema = z.object({
  status: z.enum(['none', 'noCode', 'ready', 'previewing', 'applied']),
  target: z.nullable(str),
  note: z.optional(str),
  /** Files runs open VS Code's refactor preview (the review and the apply in one); selection runs a diff editor. */
  kind: z.enum(['selection', 'files']),
});
export type ApplyState = z.infer<typeof ApplyStateSchema>;

export const ShownRunSchema = z.object({
  id: str,
  title: str,
  /** What the user asked, in their words (the engine's task may wrap it in chat history and context). */
  task: str,
  /** A stored run from an earlier session: nothing can be cancelled, previewed or applied. */
  readOnly: bool,
  running: bool,
  /** Host milliseconds since the run started, at send time (drives the live elapsed clock). */
  clock: num,
  view: RunViewSchema,
  apply: ApplyStateSchema,
  /**
   * Runs with escalation stages: each stage's agent ids, in the order the engine calls them (the state records the
   * stages called so far; this says how many there are and who waits for which). Absent: no stages, or a past run
   * (its plan is not kept).
   */
  stages: z.optional(z.array(z.array(str))),
});
export type ShownRun = z.infer<typeof ShownRunSchema>;

export const APPROVAL_CHOICES = ['allow', 'allowRun', 'deny'] as const;
export type ApprovalChoice = (typeof APPROVAL_CHOICES)[number];

/** A command an agent waits to run until the user answers (src/host/run/approval-queue.ts owns them). */
export const PendingApprovalSchema = z.object({
  id: str,
  runId: str,
  /** The agent's id as the user configured it, and its label (agentK). */
  agentId: str,
  label: str,
  /** The command, cut to a few hundred characters. */
  command: str,
  /** The workspace folder's name, and the agent's copy of it where the command would run. */
  folder: str,
  copy: str,
  /** Sandboxed commands may be allowed for the rest of the run; unsandboxed ones are asked for one by one. */
  sandboxed: bool,
});
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;
/**
 * A run about to start that waits for the user's answer (whether to use the project's test command as a check): the
 * viewer shows it at once, with the question, until the run has started. `answered`: the question is settled (by the
 * viewer, the notification or the wait running out) and the run is starting.
 */
export const PendingRunSchema = z.object({ id, title: str, command: str, why: str, answered: bool });
export type PendingRun = z.infer<typeof PendingRunSchema>;

export const HostMessageSchema = z.discriminatedUnion('type', [
  // `setup` is null until the host has worked it out; a `setup` message follows.
  z.object({ v, type: z.literal('snapshot'), run: z.nullable(ShownRunSchema), follow: bool, history: z.array(HistoryEntrySchema), setup: z.nullable(SetupSchema), pending: z.nullable(PendingRunSchema) }),
  z.object({ v, type: z.literal('pending'), pending: z.nullable(PendingRunSchema) }),
  z.object({ v, type: z.literal('delta'), runId: str, from: num, to: num, clock: num, events: z.array(RunEventSchema) }),
  z.object({ v, type: z.literal('head'), runId: str, seq: num }),
  z.object({ v, type: z.literal('history'), runs: z.array(HistoryEntrySchema) }),
  z.object({ v, type: z.literal('setup'), setup: SetupSchema }),
  z.object({ v, type: z.literal('apply'), runId: str, apply: ApplyStateSchema }),
  z.object({ v, type: z.literal('notice'), level: z.enum(['info', 'warning', 'error']), text: str }),
  z.object({ v, type: z.literal('diff'), runId: str, version: str, patch: z.nullable(z.string().check(z.maxLength(MAX_PATCH_CHARS))), truncated: bool, note: z.optional(str) }),
  z.object({ v, type: z.literal('noteRefused'), runId: str, agentId: z.optional(str), text: str }),
  z.object({ v, type: z.literal('escalateRefused'), runId: str, text: str }),
  z.object({ v, type: z.literal('approvals'), approvals: z.array(PendingApprovalSchema) }),
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;
export type HostMessageOf<T extends HostMessage['type']> = Extract<HostMessage, { type: T }>;

export const ACTIONS = ['preview', 'apply', 'undo', 'discard', 'copy', 'openLog'] as const;
export type RunAction = (typeof ACTIONS)[number];

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ v, type: z.literal('ready'), runId: z.nullable(id), follow: bool }),
  z.object({ v, type: z.literal('resync'), runId: id, lastSeq: num }),
  z.object({ v, type: z.literal('select'), runId: z.nullable(id) }),
  z.object({ v, type: z.literal('home') }),
  z.object({ v, type: z.literal('cancelRun'), runId: id }),
  z.object({ v, type: z.literal('cancelAgent'), runId: id, agentId: id }),
  z.object({ v, type: z.literal('action'), action: z.enum(ACTIONS), runId: id }),
  z.object({ v, type: z.literal('start'), how: z.enum(['chat', 'selection', 'settings', 'setApiKey', 'openConfig']), envVar: z.optional(envVar) }),
  z.object({ v, type: z.literal('openLink'), href: z.string().check(z.maxLength(4096)) }),
  z.object({ v, type: z.literal('openPanel'), runId: z.nullable(id) }),
  z.object({ v, type: z.literal('log'), level: z.enum(['warn', 'error']), message: z.string().check(z.maxLength(4000)) }),
  z.object({ v, type: z.literal('requestDiff'), runId: id, version: id }),
  z.object({ v, type: z.literal('note'), runId: id, text: z.string().check(z.minLength(1), z.maxLength(MAX_NOTE_CHARS)), agentId: z.optional(id), changesTask: bool }),
  z.object({ v, type: z.literal('answerNow'), runId: id }),
  z.object({ v, type: z.literal('escalate'), runId: id }),
  z.object({ v, type: z.literal('approve'), requestId: id, choice: z.enum(APPROVAL_CHOICES) }),
  z.object({ v, type: z.literal('continueWithNote'), runId: id, noteId: id }),
  z.object({ v, type: z.literal('checksAnswer'), id, use: bool }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;
export type WebviewMessageOf<T extends WebviewMessage['type']> = Extract<WebviewMessage, { type: T }>;

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

function describe(raw: unknown, error: z.core.$ZodError): string {
  const type = raw && typeof raw === 'object' && 'type' in raw ? String((raw as { type: unknown }).type).slice(0, 40) : typeof raw;
  const issues = error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return `invalid '${type}' message: ${issues.join('; ')}${error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : ''}`;
}

export function parseHostMessage(raw: unknown): ParseResult<HostMessage> {
  const r = HostMessageSchema.safeParse(raw);
  return r.success ? { ok: true, message: r.data } : { ok: false, error: describe(raw, r.error) };
}

export function parseWebviewMessage(raw: unknown): ParseResult<WebviewMessage> {
  const r = WebviewMessageSchema.safeParse(raw);
  return r.success ? { ok: true, message: r.data } : { ok: false, error: describe(raw, r.error) };
}

/** Builders, so call sites never forget the version. */
export function hostMessage<T extends HostMessage['type']>(body: Omit<HostMessageOf<T>, 'v'> & { type: T }): HostMessageOf<T> {
  return { v: PROTOCOL_VERSION, ...body } as HostMessageOf<T>;
}

export function webviewMessage<T extends WebviewMessage['type']>(body: Omit<WebviewMessageOf<T>, 'v'> & { type: T }): WebviewMessageOf<T> {
  return { v: PROTOCOL_VERSION, ...body } as WebviewMessageOf<T>;
}
