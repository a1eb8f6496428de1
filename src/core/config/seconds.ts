// Durations a config may set, in seconds. Timers hold at most 2^31-1 ms (about 24.8 days) and a longer one used to
// fire at once, so the bound is stated here, for every timeout key alike, rather than discovered at run time.

import { z } from 'zod';

/** The longest timeout or wait a config may set: 7 days. */
export const MAX_TIMEOUT_SECONDS = 7 * 24 * 3600;
/** A timeout: more than 0, at most 7 days. */
export const seconds = z.number().positive().max(MAX_TIMEOUT_SECONDS);
/** A wait that may be 0 (none), at most 7 days. */
export const waitSeconds = z.number().min(0).max(MAX_TIMEOUT_SECONDS);
