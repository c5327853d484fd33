// What <svc-channel-setup> shows and holds between two `reset()`s; the panel (created-panel.ts)
// reads it and patches it through the element.
import type { ErrorCode } from '../../core/errors.js';
import type { Channel } from '../../service/types.js';
import type { Problems } from './form-rules.js';
import type { Secret } from './settings.js';

/** Everything `reset()` forgets, in one object, so that forgetting is one assignment. */
export interface Session {
  creating?: boolean;
  /** The fields to fix, and why. */
  problems?: Problems;
  /** Why the channel was not created. */
  failure?: ErrorCode;
  /** The created channel, credentials included (in memory only), and what the form asked for. */
  created?: { channel: Channel; region: string; renditions: number };
  revealed?: Partial<Record<Secret, boolean>>;
  /** The key of the setting copied last, or of the one that could not be copied. */
  copied?: string;
  copyFailed?: string;
  /** The polite live region's text. */
  announcement?: string;
}
