// The patches of a workspace run's answer versions, made when each is snapshotted and kept for the views after the
// copies are gone (the vote viewer's diffs). The work area is their one owner. Memory is bounded: past `maxChars` the
// least recently used go (a view then says the diff is not available; a recorded run keeps every patch in its log,
// and the winner's change is made again from the copies while they exist).

export const MAX_PATCH_STORE_CHARS = 16 * 1024 * 1024;

export class PatchStore {
  private readonly patches = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars = MAX_PATCH_STORE_CHARS) {}

  /** A patch larger than the whole budget is not kept. */
  set(versionLabel: string, patch: string): void {
    this.delete(versionLabel);
    if (patch.length > this.maxChars) return;
    this.patches.set(versionLabel, patch);
    this.chars += patch.length;
    for (const [label] of this.patches) {
      if (this.chars <= this.maxChars) break;
      this.delete(label);
    }
  }

  get(versionLabel: string): string | undefined {
    const patch = this.patches.get(versionLabel);
    if (patch !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.patches.delete(versionLabel);
      this.patches.set(versionLabel, patch);
    }
    return patch;
  }

  private delete(versionLabel: string): void {
    const patch = this.patches.get(versionLabel);
    if (patch === undefined) return;
    this.patches.delete(versionLabel);
    this.chars -= patch.length;
  }
}
