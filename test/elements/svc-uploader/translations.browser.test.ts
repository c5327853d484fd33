// <svc-uploader> in the viewer's language: the nearest `lang` (an ancestor's, across shadow roots)
// picks the strings, a change of `lang` re-renders, sizes follow the locale, the `strings` property
// still wins, Arabic lays out right to left, and a relay failure is shown by its code in the
// viewer's language. Real browser, real relay and local service.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../src/elements/svc-uploader/define.js';
import type { SvcUploader, SvcUploadErrorDetail } from '../../../src/elements/svc-uploader/svc-uploader.js';
import de from '../../../src/elements/locales/de.js';
import fr from '../../../src/elements/locales/fr.js';
import { control, videoFile } from '../../support/browser.js';

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;
declare const afterEach: (body: () => Promise<void> | void) => void;

afterEach(async () => {
  await control('/reset', {});
  sessionStorage.clear();
});

const frUploader = fr['svc-uploader'];
const deUploader = de['svc-uploader'];

async function inLang(lang: string, attrs = ''): Promise<{ wrapper: HTMLElement; el: SvcUploader }> {
  const wrapper = await fixture<HTMLElement>(`<div lang="${lang}"><svc-uploader ${attrs}></svc-uploader></div>`);
  const el = wrapper.querySelector('svc-uploader')!;
  await el.updateComplete;
  return { wrapper, el };
}

const dropzoneText = (el: SvcUploader) => el.shadowRoot!.querySelector('[part=dropzone]')!.textContent!.trim();
const hintText = (el: SvcUploader) => el.shadowRoot!.querySelector('[part=hint]')!.textContent!.trim();

describe('<svc-uploader> translations', () => {
  it('speaks French under an ancestor lang="fr", names buttons in French, and follows lang changes at runtime', async () => {
    const { wrapper, el } = await inLang('fr');
    await waitUntil(() => dropzoneText(el) === frUploader.dropzoneSingle, 'French drop zone');
    expect(hintText(el)).to.equal('Formats acceptés : tout format vidéo.');
    el.addEventListener('svc-upload-select', (event) => event.preventDefault(), { once: true });
    await el.addFiles([new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    expect(el.items).to.deep.equal([]);
    await el.addFiles([new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    await el.updateComplete;
    const row = el.shadowRoot!.querySelector('li[data-id]')!;
    expect(row.textContent).to.contain('Échec').and.contain('notes.txt n’est pas d’un type de fichier accepté (tout format vidéo).');
    expect(row.querySelector('[part~=remove-button]')!.getAttribute('aria-label')).to.equal('Retirer notes.txt de la liste');
    expect(el.shadowRoot!.querySelector('[part=list]')!.getAttribute('aria-label')).to.equal('Envois');

    wrapper.setAttribute('lang', 'de');
    await waitUntil(() => dropzoneText(el) === deUploader.dropzoneSingle, 'German after the change');
    expect(el.shadowRoot!.querySelector('li[data-id]')!.textContent).to.contain('Fehlgeschlagen');
    wrapper.setAttribute('lang', 'en');
    await waitUntil(() => dropzoneText(el) === 'Drop a video file here, or choose a file', 'English again');
  });

  it('takes French for fr-CA, English for an unknown language, and the strings property over a translation', async () => {
    const { el: canadian } = await inLang('fr-CA', 'multiple');
    await waitUntil(() => dropzoneText(canadian) === frUploader.dropzone, 'French for fr-CA');
    const { el: unknown } = await inLang('zz');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(dropzoneText(unknown)).to.equal('Drop a video file here, or choose a file');
    const { el: overridden } = await inLang('fr');
    overridden.strings = { dropzoneSingle: 'Glissez votre film ici' };
    await waitUntil(() => hintText(overridden).startsWith('Formats acceptés'), 'French hint');
    expect(dropzoneText(overridden)).to.equal('Glissez votre film ici');
  });

  it('formats sizes in the locale (decimal comma in German)', async () => {
    const { el } = await inLang('de', 'max-size="1610612736"');
    await waitUntil(() => hintText(el).includes('Bis zu'), 'German hint');
    expect(hintText(el)).to.equal('Erlaubt: jedes Videoformat. Bis zu 1,5 GiB pro Datei.');
    const { el: small } = await inLang('de', 'max-size="1000"');
    await waitUntil(() => hintText(small).includes('Bis zu'), 'German hint');
    await small.addFiles([new File([new Uint8Array(1536)], 'clip.mp4', { type: 'video/mp4' })]);
    await small.updateComplete;
    expect(small.shadowRoot!.querySelector('[part=size]')!.textContent).to.equal('1,5 KiB');
    expect(small.shadowRoot!.querySelector('[part=error]')!.textContent).to.equal(
      'clip.mp4 ist 1,5 KiB groß und überschreitet die Grenze von 1.000 Byte.',
    );
  });

  it('shows a relay failure by its code in the viewer language, never the relay sentence', async () => {
    await control('/faults', { origin: 'api', method: 'POST', path: '/v2/vod', status: 503, count: 1 });
    const { el } = await inLang('fr');
    el.networkRetries = 0; // fail at once, not after retries
    await waitUntil(() => dropzoneText(el) === frUploader.dropzoneSingle, 'French drop zone');
    const failed = oneEvent(el, 'svc-error');
    await el.addFiles([await videoFile('fr-2s.mp4')]);
    const { detail } = (await failed) as CustomEvent<SvcUploadErrorDetail>;
    expect(detail.code).to.match(/^upstream_/);
    await waitUntil(() => el.shadowRoot!.querySelector('li[data-state=failed]'), 'row failed');
    await el.updateComplete;
    const row = el.shadowRoot!.querySelector('li[data-id]')!;
    expect(row.querySelector('[part=error]')!.textContent).to.equal(fr.errors[detail.code]);
    expect(el.shadowRoot!.innerHTML).not.to.contain(detail.message);
    expect(el.shadowRoot!.querySelector('[role=status]')!.textContent).to.contain(fr.errors[detail.code]);
  });

  it('lays out right to left in an Arabic page without a dir attribute', async () => {
    const { el } = await inLang('ar');
    await waitUntil(() => el.shadowRoot!.querySelector('[dir=rtl]'), 'rtl wrapper');
    const dropzone = el.shadowRoot!.querySelector<HTMLElement>('[part=dropzone]')!;
    expect(getComputedStyle(dropzone).direction).to.equal('rtl');
    // A page that says its direction keeps it.
    const wrapper = await fixture<HTMLElement>(html`<div lang="ar" dir="ltr"><svc-uploader></svc-uploader></div>`);
    const ltr = wrapper.querySelector('svc-uploader')!;
    await waitUntil(() => ltr.shadowRoot!.querySelector('[part=dropzone]')?.textContent?.trim() !== 'Drop a video file here, or choose a file', 'Arabic strings');
    expect(ltr.shadowRoot!.querySelector('[dir]')!.getAttribute('dir')).to.equal('ltr');
    expect(getComputedStyle(ltr.shadowRoot!.querySelector<HTMLElement>('[part=dropzone]')!).direction).to.equal('ltr');
  });
});
