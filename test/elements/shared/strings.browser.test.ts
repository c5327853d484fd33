// The strings controller every element uses (src/elements/shared/strings.ts): the language of the
// nearest `lang` attribute as the platform resolves it, each language's module loaded only when
// used, the `strings` property over everything, error messages by code, right-to-left for Arabic.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { LitElement } from 'lit';
import { format } from '../../../src/elements/shared/intl.js';
import { Localized, langOf, pickLocale, type StringsOverride } from '../../../src/elements/shared/strings.js';
import { defaultStrings, type SvcPlayerStrings } from '../../../src/elements/svc-player/strings.js';
import french from '../../../src/elements/locales/fr.js';
import german from '../../../src/elements/locales/de.js';

const fr = french.errors;
const de = german.errors;

declare const describe: (name: string, body: () => void) => void;
declare const it: (name: string, body: () => Promise<void> | void) => void;

class StringsProbe extends LitElement {
  strings: StringsOverride<SvcPlayerStrings> = {};
  l10n = new Localized<SvcPlayerStrings>(this, 'svc-player', defaultStrings);
  renders = 0;
  protected override render() {
    this.renders++;
    return html`<p>${this.l10n.error('not_found')}</p>`;
  }
}
customElements.define('strings-probe', StringsProbe);

const shown = (probe: StringsProbe) => probe.shadowRoot?.querySelector('p')?.textContent;
const loadedModules = (locale: string) =>
  performance.getEntriesByType('resource').filter((entry) => entry.name.includes(`/locales/${locale}.`));

async function probeIn(markup: ReturnType<typeof html>): Promise<StringsProbe> {
  const root = await fixture<HTMLElement>(markup);
  const probe = root.matches('strings-probe') ? (root as StringsProbe) : root.querySelector<StringsProbe>('strings-probe')!;
  await probe.updateComplete;
  return probe;
}

describe('Localized strings', () => {
  it('loads a language module only when an element on the page uses that language', async () => {
    expect(loadedModules('ja'), 'before').to.have.length(0);
    const probe = await probeIn(html`<div lang="ja"><strings-probe></strings-probe></div>`);
    await waitUntil(() => probe.l10n.current === 'ja', 'the Japanese strings load');
    expect(loadedModules('ja').length, 'after').to.be.greaterThan(0);
    expect(loadedModules('es'), 'an unused language').to.have.length(0);
  });

  it('shows English without a lang attribute, and the language of the nearest lang when there is one', async () => {
    const plain = await probeIn(html`<strings-probe></strings-probe>`);
    expect(langOf(plain)).to.equal('');
    expect(shown(plain)).to.equal('It does not exist, or it is not yours.');
    const french = await probeIn(html`<section lang="de"><div lang="fr"><strings-probe></strings-probe></div></section>`);
    await waitUntil(() => shown(french) === fr.not_found, 'French error message');
    expect(french.l10n.locale).to.equal('fr');
  });

  it('finds the lang of a shadow host, as the platform resolves it', async () => {
    const outer = await fixture<HTMLElement>(html`<div lang="de"><span></span></div>`);
    const shadow = outer.querySelector('span')!.attachShadow({ mode: 'open' });
    const probe = document.createElement('strings-probe') as StringsProbe;
    shadow.append(probe);
    await waitUntil(() => shown(probe) === de.not_found, 'German through the shadow root');
  });

  it('follows a lang that changes at runtime', async () => {
    const probe = await probeIn(html`<div lang="en"><strings-probe></strings-probe></div>`);
    expect(shown(probe)).to.equal('It does not exist, or it is not yours.');
    probe.parentElement!.lang = 'fr';
    await waitUntil(() => shown(probe) === fr.not_found, 'French after the change');
    probe.parentElement!.lang = 'en';
    await waitUntil(() => shown(probe) === 'It does not exist, or it is not yours.', 'English again');
  });

  it('uses a region tag for Intl and the shipped language for the strings; unknown or malformed tags fall back to English', async () => {
    const canadian = await probeIn(html`<div lang="fr-CA"><strings-probe></strings-probe></div>`);
    await waitUntil(() => canadian.l10n.current === 'fr', 'French strings');
    expect(canadian.l10n.locale).to.equal('fr-CA');
    expect(format('{n}', { n: 1234.5 }, canadian.l10n.locale), 'numbers in the region\'s format').to.equal(new Intl.NumberFormat('fr-CA').format(1234.5));
    for (const lang of ['zz', 'fr_FR', 'x']) {
      const other = await probeIn(html`<div lang=${lang}><strings-probe></strings-probe></div>`);
      expect(other.l10n.current, lang).to.equal('en');
      expect(other.l10n.locale, lang).to.equal('en');
      expect(shown(other), lang).to.equal('It does not exist, or it is not yours.');
    }
  });

  it('lets the strings property override any string and any error message, in any language', async () => {
    const probe = await probeIn(html`<div lang="fr"><strings-probe></strings-probe></div>`);
    await waitUntil(() => shown(probe) === fr.not_found, 'French first');
    probe.strings = { loading: 'Un instant…', errors: { not_found: 'Introuvable.' } };
    probe.requestUpdate();
    await probe.updateComplete;
    expect(shown(probe)).to.equal('Introuvable.');
    expect(probe.l10n.strings.loading).to.equal('Un instant…');
    expect(probe.l10n.strings.unavailable, 'other strings stay translated').to.not.equal(defaultStrings.unavailable);
  });

  it('shows an unknown code as the internal message, never the code itself', async () => {
    const probe = await probeIn(html`<strings-probe></strings-probe>`);
    expect(probe.l10n.error('no_such_code')).to.equal('Something went wrong.');
  });

  it('lays Arabic out right to left unless a dir attribute up the tree says otherwise', async () => {
    const arabic = await probeIn(html`<div lang="ar"><strings-probe></strings-probe></div>`);
    await waitUntil(() => arabic.l10n.current === 'ar', 'Arabic strings');
    expect(arabic.l10n.dir).to.equal('rtl');
    const forced = await probeIn(html`<div dir="ltr"><div lang="ar"><strings-probe></strings-probe></div></div>`);
    await waitUntil(() => forced.l10n.current === 'ar', 'Arabic strings');
    expect(forced.l10n.dir).to.equal('ltr');
    const hebrewPage = await probeIn(html`<div dir="rtl"><strings-probe></strings-probe></div>`);
    expect(hebrewPage.l10n.dir, 'a page that says rtl').to.equal('rtl');
    const renders = hebrewPage.renders;
    hebrewPage.parentElement!.dir = 'ltr';
    await waitUntil(() => hebrewPage.renders > renders, 'a dir change re-renders');
    expect(hebrewPage.l10n.dir).to.equal('ltr');
  });

  it('picks the shipped locale of a language tag', () => {
    const cases: [string, string][] = [
      ['', 'en'], ['en-GB', 'en'], ['fr', 'fr'], ['fr-BE', 'fr'], ['DE-at', 'de'], ['es-419', 'es'],
      ['pt', 'pt-BR'], ['pt-PT', 'pt-BR'], ['PT-br', 'pt-BR'], ['ja-JP', 'ja'], ['ar-EG', 'ar'], ['nl', 'en'],
    ];
    for (const [lang, locale] of cases) expect(pickLocale(lang), lang).to.equal(locale);
  });
});
