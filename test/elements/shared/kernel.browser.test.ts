// The element kernel (src/elements/shared/svc-element.ts) and the lazy-part seam
// (src/elements/shared/part.ts), on a small element of their own: registering, the reflected
// state, `svc-error` (never for a cancelled request), and a part loaded once, styled after the
// element's own styles, rendered pending / complete / error, and loaded again after a failure.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { css } from 'lit';
import { SvcError } from '../../../src/core/errors.js';
import { LazyPart, lazyChunk, type ElementPort } from '../../../src/elements/shared/part.js';
import { Localized } from '../../../src/elements/shared/strings.js';
import { SvcElement } from '../../../src/elements/shared/svc-element.js';
import { SvcElementCore } from '../../../src/elements/shared/svc-element-core.js';
import { SvcChannelSetup } from '../../../src/elements/svc-channel-setup/svc-channel-setup.js';
import { SvcPlayer } from '../../../src/elements/svc-player/svc-player.js';
import { SvcPlaylistEditor } from '../../../src/elements/svc-playlist-editor/svc-playlist-editor.js';
import { SvcUploader } from '../../../src/elements/svc-uploader/svc-uploader.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;

const probeStrings = { failed: 'It failed' };
type ProbeStrings = typeof probeStrings;

/** The part: its styles and a template that reads the element through its port. */
const part = {
  styles: css`
    .said {
      color: rgb(1, 2, 3);
    }
  `,
  view: (port: ElementPort<ProbeStrings>) => html`<p class="said">${port.strings.failed}</p>`,
};
let failNext = false;
let loads = 0;
const chunk = lazyChunk(async () => {
  loads++;
  if (failNext) {
    failNext = false;
    throw new TypeError('Failed to fetch dynamically imported module');
  }
  return part;
});

class KernelProbe extends SvcElement<ProbeStrings> {
  static override styles = css`
    .said {
      color: rgb(9, 9, 9);
      font-weight: 700;
    }
  `;
  protected static override readonly tag = 'kernel-probe';
  protected readonly l10n = new Localized<ProbeStrings>(this, 'svc-player' as never, probeStrings);
  busy = false;
  said = '';
  readonly lazy = new LazyPart(this, chunk, { onError: (error) => this.emitError(error) });

  override get state(): 'busy' | 'idle' {
    return this.busy ? 'busy' : 'idle';
  }

  protected override announce(text: string): void {
    this.said = text;
  }

  fail(error: unknown, detail?: object): SvcError {
    return this.emitError(error, detail);
  }

  protected override render() {
    return this.lazy.render({
      pending: () => html`<p class="pending">…</p>`,
      complete: (module) => module.view(this.port),
      error: (error) => html`<p class="error">${this.port.errorText(error)}</p>`,
    });
  }
}

describe('SvcElement, the element kernel', () => {
  it('is what every element extends: none registers itself or declares relay, token or strings its own way', () => {
    for (const element of [SvcPlayer, SvcUploader, SvcPlaylistEditor, SvcChannelSetup]) {
      expect(element.prototype, element.name).to.be.instanceOf(SvcElementCore);
      expect(Object.hasOwn(element, 'define'), `${element.name}.define`).to.equal(false);
      const own = Object.hasOwn(element, 'properties') ? Object.keys(element.properties) : [];
      expect(own.filter((name) => ['relay', 'token', 'strings'].includes(name)), element.name).to.deep.equal([]);
      element.define(); // Lit merges the kernel's properties with the element's when it is registered
      for (const name of ['relay', 'token', 'strings']) expect(element.elementProperties.has(name), `${element.name}.${name}`).to.equal(true);
    }
  });

  it('define() registers its tag once, in the registry given, and returns the class', () => {
    expect(KernelProbe.define()).to.equal(KernelProbe);
    expect(customElements.get('kernel-probe')).to.equal(KernelProbe);
    expect(KernelProbe.define()).to.equal(KernelProbe); // a second call is no error
    const defined = new Map<string, CustomElementConstructor>();
    const registry = { get: (tag: string) => defined.get(tag), define: (tag: string, ctor: CustomElementConstructor) => void defined.set(tag, ctor) };
    class Other extends KernelProbe {}
    Other.define('other-probe', registry as unknown as CustomElementRegistry);
    expect(defined.get('other-probe')).to.equal(Other);
    expect(customElements.get('other-probe')).to.equal(undefined);
  });

  it('reflects `state` as the attribute after each update', async () => {
    KernelProbe.define();
    const el = await fixture<KernelProbe>(html`<kernel-probe></kernel-probe>`);
    expect(el.getAttribute('state')).to.equal('idle');
    el.busy = true;
    el.requestUpdate();
    await el.updateComplete;
    expect(el.getAttribute('state')).to.equal('busy');
  });

  it('fires svc-error with the code, the message and the detail given; never for a cancelled request', async () => {
    KernelProbe.define();
    const el = await fixture<KernelProbe>(html`<kernel-probe></kernel-probe>`);
    const details: unknown[] = [];
    el.addEventListener('svc-error', (event) => details.push(event.detail));
    el.fail(new SvcError('conflict', 'Someone saved first.'), { playlistId: 'p1' });
    const aborted = el.fail(new DOMException('The operation was aborted.', 'AbortError'));
    expect(aborted.code).to.equal('aborted');
    expect(details).to.deep.equal([{ code: 'conflict', message: 'Someone saved first.', playlistId: 'p1' }]);
  });
});

describe('LazyPart, the lazy-part seam', () => {
  it('shows why a part could not be downloaded (svc-error network_error), then loads it again, styled after the element', async () => {
    KernelProbe.define();
    failNext = true;
    const el = await fixture<KernelProbe>(html`<kernel-probe></kernel-probe>`);
    const errors: string[] = [];
    el.addEventListener('svc-error', (event) => errors.push(event.detail.code));
    await el.lazy.load().catch(() => undefined);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.error')!.textContent).to.equal('The connection failed. Check your connection and try again.');
    expect(errors).to.deep.equal(['network_error']);

    await el.lazy.load();
    await el.updateComplete;
    const said = el.shadowRoot!.querySelector<HTMLElement>('.said')!;
    expect(said.textContent).to.equal('It failed');
    // The part's styles come after the element's: its colour wins, the element's weight stays.
    expect(getComputedStyle(said).color).to.equal('rgb(1, 2, 3)');
    expect(getComputedStyle(said).fontWeight).to.equal('700');
    expect(loads).to.equal(2);

    // Another element of the page takes the loaded part at once, with its styles.
    const other = await fixture<KernelProbe>(html`<kernel-probe></kernel-probe>`);
    await waitUntil(() => other.shadowRoot!.querySelector('.said'), 'shown at once');
    expect(getComputedStyle(other.shadowRoot!.querySelector('.said')!).color).to.equal('rgb(1, 2, 3)');
    expect(loads).to.equal(2);
  });

  it('answers two loads at once with the one module (an editor loads its part for a playlist and for a created one)', async () => {
    KernelProbe.define();
    const el = await fixture<KernelProbe>(html`<kernel-probe></kernel-probe>`);
    const module = { styles: [] };
    const slow = new LazyPart(el, lazyChunk(() => new Promise<typeof module>((resolve) => setTimeout(() => resolve(module), 50))));
    const [first, second] = await Promise.all([slow.load(), slow.load()]);
    expect(first).to.equal(module);
    expect(second).to.equal(module);
  });
});
