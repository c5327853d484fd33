// Embed codes (operations 6 to 11) and content ids. The code is markup escaped as HTML
// entities, which clients decode once.
import { CONTENT_ID_SEGMENT, type EmbedKind, type EmbedVariant } from '../service/types.js';

/** Class of the script element; marks it as a video player. */
export const PLAYER_CLASS = 'svc-video-player';

export function contentId(accountId: string, kind: EmbedKind, id: string): string {
  return `${accountId}-${CONTENT_ID_SEGMENT[kind]}-${id}`;
}

/** The inverse of contentId for this account, or undefined. */
export function parseContentId(accountId: string, value: string): { kind: EmbedKind; id: string } | undefined {
  const prefix = `${accountId}-`;
  if (!value.startsWith(prefix)) return undefined;
  const match = /^(vod|live|playlist)-([A-Za-z0-9_]+)$/.exec(value.slice(prefix.length));
  if (!match) return undefined;
  const kind = match[1] === 'live' ? 'channel' : (match[1] as EmbedKind);
  return { kind, id: match[2]! };
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

const LABEL: Record<EmbedKind, string> = { vod: 'Video', channel: 'Live channel', playlist: 'Playlist' };

/** Path of the iframe player for content on the iframe origin: `/<vod|live|playlist>/<account>/<id>`. */
export function iframePath(accountId: string, kind: EmbedKind, id: string): string {
  return `/${CONTENT_ID_SEGMENT[kind]}/${encodeURIComponent(accountId)}/${encodeURIComponent(id)}`;
}

/**
 * The unescaped markup of an embed code. With `iframe` (the observed profile) the iframe variant
 * has the shape the public clients show: a separate iframe origin, pixel sizes and every
 * fullscreen attribute; without it, the local service's own form on the player origin.
 */
export function embedMarkup(input: {
  playerUrl: string;
  contentId: string;
  kind: EmbedKind;
  variant: EmbedVariant;
  title: string;
  iframe?: { url: string; accountId: string; id: string };
}): string {
  const id = escapeHtml(input.contentId);
  const src = (path: string) => escapeHtml(`${input.playerUrl}${path}${encodeURIComponent(input.contentId)}`);
  if (input.variant === 'javascript') {
    return `<script id="${id}" width="100%" height="100%" src="${src('/js/player.js?contentId=')}" class="${PLAYER_CLASS}"></script>`;
  }
  if (input.iframe) {
    const url = escapeHtml(`${input.iframe.url}${iframePath(input.iframe.accountId, input.kind, input.iframe.id)}`);
    return (
      `<iframe src="${url}" width="640" height="360" frameborder="0" scrolling="no" allow="autoplay" ` +
      'allowfullscreen webkitallowfullscreen mozallowfullscreen oallowfullscreen msallowfullscreen></iframe>'
    );
  }
  const title = escapeHtml(`${LABEL[input.kind]}: ${input.title}`);
  return (
    '<div style="position:relative;padding-top:56.25%">' +
    `<iframe id="${id}" src="${src('/embed/')}" width="100%" height="100%" ` +
    'style="position:absolute;top:0;left:0;width:100%;height:100%" frameborder="0" ' +
    `allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="${title}"></iframe></div>`
  );
}

/** The `{code}` response: the markup escaped as entities. */
export function embedCode(markup: string): { code: string } {
  return { code: escapeHtml(markup) };
}
