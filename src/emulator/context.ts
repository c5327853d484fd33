// What the three origins share: the resolved options, the content, the control records and the
// encoder. `urls` is filled in once the servers listen (embed codes need the player's address).
import type { Control } from './control.js';
import type { Encoder } from './encoder.js';
import type { Logger } from './log.js';
import type { SigningCredentials } from './s3-post.js';
import type { Store } from './store.js';

/**
 * `observed`: what the real service's public clients show (docs/real-service.md); `seed`: the
 * seed's literal contract only.
 */
export type Profile = 'observed' | 'seed';

export interface ServiceConfig {
  profile: Profile;
  apiKey: string;
  accountId: string;
  credentials: SigningCredentials;
  bucket: string;
  acl: string;
  maxUploadBytes: number;
  dataDir: string;
  control: boolean;
  /** Domain of the RTMP ingest addresses handed to channels. */
  ingestDomain: string;
  /** With temporary credentials: the session token signatures carry (x-amz-security-token). */
  securityToken?: string;
  /** How long a new playlist answers 404 and an updated one shows its old content. */
  consistencyMs: number;
}

export interface ServiceContext {
  config: ServiceConfig;
  urls: { baseUrl: string; uploadUrl: string; playerUrl: string; iframeUrl: string };
  store: Store;
  control: Control;
  encoder: Encoder;
  log: Logger;
}

/** Default policy lifetime of an upload signature. */
export const DEFAULT_SIGNATURE_TTL_MS = 3_600_000;
