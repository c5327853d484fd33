// The panel of <svc-channel-setup> once a channel exists: the encoder settings with reveal and
// copy, the live preview and the embed code. Loaded with import() only when a channel is being
// created, so a page that shows the form downloads none of it. It imports nothing the element's
// first paint has but Lit: the element hands it the settings and registers the preview's
// <svc-player> (a bundler such as esbuild makes a file of its own of any module both reach).
import { css, html, nothing, type TemplateResult } from 'lit';
import type { Task } from '@lit/task';
import { format, numberFormat } from '../shared/intl.js';
import type { ElementPort } from '../shared/part.js';
import { copyText } from './clipboard.js';
import type { Session } from './session.js';
import type { Setting } from './settings.js';
import type { SvcChannelSetupStrings } from './strings.js';

// What the seam (shared/part.ts) takes from this part besides its styles: its English strings, which
// join the element's defaults when it arrives.
export { laterStrings as strings } from './later-strings.js';

/** The panel's own state and actions, beside the element's port. */
export interface Panel {
  created: NonNullable<Session['created']>;
  /** The encoder settings of the created channel, in order (settings.ts). */
  settings: Setting[];
  session: Session;
  regionLabel(region: string): string;
  relay?: string | null;
  /** The embed code, decoded (the service sends it entity-escaped). */
  embed: Task<readonly [string | undefined], string>;
  /** Where the copy fallback puts its temporary text area. */
  root: ParentNode;
  patch(change: Partial<Session>): void;
  reset(): void;
}

type Port = ElementPort<SvcChannelSetupStrings>;

export function renderPanel(port: Port, panel: Panel): TemplateResult {
  const { strings: s } = port;
  const { embed } = panel;
  const { channel, region, renditions } = panel.created;
  const code = embed.value ?? '';
  return html`
    <section class="stack" part="panel" aria-labelledby="created-heading">
      <h2 id="created-heading" part="heading" tabindex="-1">${s.createdHeading}</h2>
      <p class="notice" part="notice">${s.copyNow}</p>
      <p part="summary">
        ${format(s.summary, { title: channel.title, region: panel.regionLabel(region), count: numberFormat(port.locale).format(renditions) })}
      </p>
      <dl part="settings">${panel.settings.map((setting) => renderSetting(port, panel, setting))}</dl>
      <p class="hint" part="note">${s.authNote}</p>
      <section class="stack" aria-labelledby="preview-heading">
        <h3 id="preview-heading">${s.previewHeading}</h3>
        <p class="hint" part="hint">${s.previewHint}</p>
        ${/* The iframe variant: a vendor player.js cannot find its script inside this shadow root. */ ''}
        <div class="preview-box">
          <svc-player class="preview" part="preview" kind="channel" variant="iframe" content-id=${channel.id}
            loading="eager" relay=${panel.relay || nothing}></svc-player>
          ${/* Until the player reports a video (has-video): the encoder is not streaming yet. */ ''}
          <p class="waiting" part="waiting">${s.previewWaiting}</p>
        </div>
      </section>
      <div class="field embed" part="field">
        <label for="embed-code" part="label">${s.embedLabel}</label>
        ${embed.render({
          pending: () => html`<p class="hint" part="hint">${s.embedLoading}</p>`,
          error: (error) =>
            html`<p class="error" part="field-error" role="alert">${format(s.embedFailed, { message: port.errorText(error) })}</p>`,
        })}
        <textarea id="embed-code" part="embed-code" readonly rows="4" spellcheck="false" aria-describedby="embed-hint"
          .value=${code}></textarea>
        <p id="embed-hint" class="hint" part="hint">${s.embedHint}</p>
        <div class="actions">${code ? copyButton(port, panel, { key: 'embed', label: s.embedLabel, value: code }) : nothing}</div>
      </div>
      <slot name="created"></slot>
      <div class="actions">
        <button type="button" class="primary" part="another-button" @click=${panel.reset}>${s.createAnother}</button>
      </div>
    </section>
  `;
}

function renderSetting(port: Port, panel: Panel, setting: Setting): TemplateResult {
  const { strings: s } = port;
  const { session, patch } = panel;
  const { secret } = setting;
  const revealed = !!secret && !!session.revealed?.[secret];
  return html`
    <div part="setting" data-setting=${setting.key}>
      <dt id="label-${setting.key}">${setting.label}</dt>
      <dd>
        <code class="value" part="value" id="value-${setting.key}">${renderValue(s, setting, !secret || revealed)}</code>
        ${secret
          ? html`<button type="button" part="reveal-button" data-reveal=${secret}
              aria-label=${format(revealed ? s.concealLabel : s.revealLabel, { label: setting.label })}
              aria-pressed=${revealed ? 'true' : 'false'}
              @click=${() => patch({ revealed: { ...session.revealed, [secret]: !revealed } })}>
              ${revealed ? s.conceal : s.reveal}
            </button>`
          : nothing}
        ${copyButton(port, panel, setting)}
      </dd>
    </div>
  `;
}

function renderValue(s: SvcChannelSetupStrings, setting: Setting, shown: boolean): TemplateResult {
  if (!shown) return html`<span aria-hidden="true">••••••••</span><span class="visually-hidden">${s.hidden}</span>`;
  if (setting.href) {
    return html`<a href=${setting.href} target="_blank" rel="noopener noreferrer" part="player-link">${setting.value}</a>`;
  }
  return html`${setting.value}`;
}

function copyButton(port: Port, panel: Panel, setting: Setting): TemplateResult {
  const { strings: s } = port;
  const { session } = panel;
  const copied = session.copied === setting.key;
  return html`
    <button type="button" part="copy-button" data-copy=${setting.key} aria-label=${format(s.copyLabel, { label: setting.label })}
      @click=${(event: Event) => copy(port, panel, setting, event.currentTarget as HTMLElement)}>${s.copy}</button>
    ${/* Always there, hidden until used, so that the confirmation never moves the layout. */ ''}
    <span class="copied" part=${copied ? 'copied' : nothing} ?hidden=${!copied}>${s.copied}</span>
    ${session.copyFailed === setting.key
      ? html`<span class="error" part="copy-error">${format(s.copyFailed, { label: setting.label })}</span>`
      : nothing}
  `;
}

async function copy(port: Port, panel: Panel, setting: Setting, button: HTMLElement): Promise<void> {
  const { strings: s } = port;
  const copied = await copyText(setting.value, panel.root, button);
  panel.patch(copied ? { copied: setting.key, copyFailed: undefined } : { copied: undefined, copyFailed: setting.key });
  port.announce(format(copied ? s.copiedAnnouncement : s.copyFailed, { label: setting.label }));
}

/** The panel's own styles (on the element's tokens), adopted with the part (shared/part.ts). */
export const styles = css`
  .notice {
    padding: 0.75em 1em;
    border-inline-start: 4px solid var(--svc-channel-setup-notice-border-color, light-dark(#b06000, #e0a040));
    background: var(--svc-channel-setup-notice-background, light-dark(#fef7e0, #3a2e0b));
    color: var(--svc-channel-setup-notice-color, light-dark(#3c2a00, #fde9b0));
  }
  dl { display: grid; gap: 0.75rem; margin: 0; }
  dt { font-weight: 600; }
  dd { margin: 0.2rem 0 0; display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
  .value {
    font-family: var(--_mono);
    overflow-wrap: anywhere;
    padding: 0.2em 0.4em;
    border: 1px solid var(--_border);
    border-radius: var(--svc-radius, 6px);
    background: var(--svc-channel-setup-value-background, light-dark(#f4f5f7, #23262b));
    flex: 1 1 16rem;
  }
  .copied { color: var(--svc-channel-setup-success-color, light-dark(#146c2e, #6dd58c)); font-weight: 600; }
  .copied[hidden] { display: inline; visibility: hidden; }
  a { color: var(--_accent); overflow-wrap: anywhere; }
  .preview { display: block; }
  .preview-box { position: relative; }
  .waiting {
    position: absolute;
    inset-block-start: 0.75rem;
    inset-inline-start: 0.75rem;
    margin: 0;
    padding: 0.3em 0.7em;
    border-radius: 999px;
    background: rgb(0 0 0 / 0.8);
    color: #fff;
    font-weight: 600;
    pointer-events: none;
  }
  .waiting::before {
    content: '';
    display: inline-block;
    width: 0.6em;
    height: 0.6em;
    margin-inline-end: 0.45em;
    border-radius: 50%;
    background: #ffb870;
  }
  svc-player[has-video] + .waiting, svc-player[state='error'] + .waiting { display: none; }
  .embed textarea { font-family: var(--_mono); font-size: 0.9em; min-height: 5.5em; }
`;
