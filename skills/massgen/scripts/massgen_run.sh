#!/usr/bin/env bash
# massgen_run.sh: one MassGen run for an agent, in a single command it can wait on (as upstream's skill script).
# Runs `massgen run --automation`, whose stdout is a few KEY: value lines (LOG_DIR, STATUS, ANSWER_FILE, COMPLETED…),
# then copies the winner's answer to result.md and writes run_summary.json. Bash 3.2 or later (macOS has 3.2).
#
#   bash massgen_run.sh --work-dir DIR --prompt-file FILE [--config FILE] [--workspace DIR] [--timeout SECONDS]
#
# Writes DIR/output.log (the KEY: value lines), DIR/errors.log (stderr), DIR/result.md (the answer) and
# DIR/run_summary.json; exits with massgen's exit code (0 answer, 1 config, 2 execution, 3 timeout, 4 interrupted).
# MASSGEN_BIN overrides the command (default: massgen on PATH), e.g. MASSGEN_BIN="node /path/to/dist/cli.js".
set -euo pipefail

WORK_DIR=""
PROMPT_FILE=""
RUN_ARGS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --work-dir) WORK_DIR="$2"; shift 2 ;;
    --prompt-file) PROMPT_FILE="$2"; shift 2 ;;
    --config) RUN_ARGS+=(--config "$2"); shift 2 ;;
    --workspace) RUN_ARGS+=(--workspace "$2"); shift 2 ;;
    --timeout) RUN_ARGS+=(--timeout "$2"); shift 2 ;;
    *) echo "massgen_run.sh: unknown option $1 (see the comment at the top of this script)" >&2; exit 1 ;;
  esac
done
[[ -n "$WORK_DIR" ]] || { echo "massgen_run.sh: --work-dir DIR is required" >&2; exit 1; }
[[ -f "$PROMPT_FILE" ]] || { echo "massgen_run.sh: --prompt-file must name an existing file (got '$PROMPT_FILE')" >&2; exit 1; }

read -r -a MASSGEN <<< "${MASSGEN_BIN:-massgen}"
# Upstream's Python `massgen` takes the question directly; this skill drives MassGen for VS Code's `massgen run`.
if ! "${MASSGEN[@]}" run --help 2>/dev/null | grep -q 'massgen run \[--config FILE\]'; then
  echo "massgen_run.sh: '${MASSGEN[*]}' is not MassGen for VS Code's CLI. Build it (npm ci && npm run build && npm link in its repository) or set MASSGEN_BIN." >&2
  exit 1
fi

mkdir -p "$WORK_DIR"
OUTPUT_LOG="$WORK_DIR/output.log"
ERRORS_LOG="$WORK_DIR/errors.log"
RESULT="$WORK_DIR/result.md"
START=$(date +%s)
CODE=0
"${MASSGEN[@]}" run --automation ${RUN_ARGS[@]+"${RUN_ARGS[@]}"} "$(cat "$PROMPT_FILE")" > "$OUTPUT_LOG" 2> "$ERRORS_LOG" || CODE=$?

field() { sed -n "s/^$1: //p" "$OUTPUT_LOG" | head -n 1; }
ANSWER_FILE=$(field ANSWER_FILE)
if [[ -n "$ANSWER_FILE" && "$ANSWER_FILE" != none && -f "$ANSWER_FILE" ]]; then cp "$ANSWER_FILE" "$RESULT"; fi

# JSON through node (the CLI needs it anyway), so any path or message is escaped correctly.
SUMMARY_EXIT_CODE=$CODE SUMMARY_DURATION=$(( $(date +%s) - START )) SUMMARY_OUTPUT="$OUTPUT_LOG" SUMMARY_ERRORS="$ERRORS_LOG" \
SUMMARY_RESULT="$RESULT" SUMMARY_WORK_DIR="$WORK_DIR" node -e '
  const fs = require("fs");
  const e = process.env;
  const lines = Object.fromEntries(fs.readFileSync(e.SUMMARY_OUTPUT, "utf8").split("\n").map((l) => /^([A-Z_]+): (.*)$/.exec(l)).filter(Boolean).map((m) => [m[1], m[2]]));
  const value = (k) => (lines[k] === undefined || lines[k] === "none" ? null : lines[k]);
  const summary = {
    exit_code: Number(e.SUMMARY_EXIT_CODE),
    duration_seconds: Number(e.SUMMARY_DURATION),
    completed: value("COMPLETED"),
    winner: value("WINNER"),
    log_dir: value("LOG_DIR"),
    status_file: value("STATUS"),
    answer_file: value("ANSWER_FILE"),
    changes_file: value("CHANGES_FILE"),
    result_file: fs.existsSync(e.SUMMARY_RESULT) ? e.SUMMARY_RESULT : null,
    error: value("ERROR") ?? (fs.readFileSync(e.SUMMARY_ERRORS, "utf8").trim() || null),
    work_dir: e.SUMMARY_WORK_DIR,
  };
  fs.writeFileSync(`${e.SUMMARY_WORK_DIR}/run_summary.json`, JSON.stringify(summary, null, 2) + "\n");
'
echo "MassGen finished (exit code $CODE): $WORK_DIR/run_summary.json, answer in $RESULT"
exit "$CODE"
