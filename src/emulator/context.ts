// What the three origins share: the resolved options, the content, the control records and the
// encoder. `urls` is filled in once the servers listen (embed codes need the player's address).
import type { Control } from './control.js';
import type { Encoder } from './encoder.js';
import type { Logger } from './log.js';
import type { SigningCredentials } from './s3-post.js';
import type { Store } from './store.js';

export interface ServiceConfig {
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
}

export interface ServiceContext {
  config: ServiceConfig;
  urls: { baseUrl: string; uploadUrl: string; playerUrl: string };
  store: Store;
  control: Control;
  encoder: Encoder;
  log: Logger;
}

/** Default policy lifetime of an upload signature. */
export const DEFAULT_SIGNATURE_TTL_MS = 3_600_000;
