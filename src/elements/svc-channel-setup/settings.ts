// The encoder settings the panel lists for a created channel, DOM-free (tested in Node).
import type { Channel } from '../../service/types.js';
import type { SvcChannelSetupStrings } from './strings.js';

export type Secret = 'login' | 'password';

export interface Setting {
  key: string;
  label: string;
  value: string;
  secret?: Secret;
  href?: string;
}

/** The rows of the panel, in order; the backup address and the player link only when there is one. */
export function settings(channel: Channel, s: SvcChannelSetupStrings): Setting[] {
  const { config, share_code: share } = channel;
  const playerLink = [share?.facebook, share?.twitter, share?.gplus].find(isWebUrl);
  return [
    { key: 'id', label: s.channelIdLabel, value: channel.id },
    { key: 'primary', label: s.primaryLabel, value: config.publishing_point_primary },
    // The service can answer null for the backup address (docs/real-service.md): no row then.
    ...(config.publishing_point_backup ? [{ key: 'backup', label: s.backupLabel, value: config.publishing_point_backup }] : []),
    { key: 'stream-key', label: s.streamKeyLabel, value: config.stream_name },
    { key: 'login', label: s.loginLabel, value: config.login, secret: 'login' as const },
    { key: 'password', label: s.passwordLabel, value: config.password, secret: 'password' as const },
    ...(playerLink ? [{ key: 'player-link', label: s.playerLinkLabel, value: playerLink, href: playerLink }] : []),
  ];
}

/** Only http(s) URLs become links (a `javascript:` URL from anywhere must never be clickable). */
export function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
