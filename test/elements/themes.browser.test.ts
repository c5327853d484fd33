// Light and dark pages: every element sets its text colour together with its surfaces, so that on a
// dark page whose light text the elements inherit (with or without `color-scheme: dark`), every
// visible text keeps AA contrast. axe checks each element of the gallery on each page.
import { expect, fixture, html } from '@open-wc/testing';
import { mountGallery } from './gallery.js';

declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;
declare const it: (name: string, body: () => Promise<void>) => void;

const PAGES = {
  light: 'background: #fff; color: #111',
  // A dark theme that says so (the elements follow it with dark surfaces).
  'dark (color-scheme: dark)': 'background: #111; color: #f5f5f5; color-scheme: dark',
  // A dark theme that only sets colours, like WordPress's "Pitch": light text on dark, no color-scheme.
  'dark (light text only)': 'background: #111; color: #f5f5f5',
};

describe('themes: AA contrast on light and dark pages', function () {
  this.timeout(120_000);

  for (const [page, style] of Object.entries(PAGES)) {
    it(`every element passes axe on a ${page} page`, async () => {
      const parent = await fixture<HTMLDivElement>(html`<div style="${style}; padding: 8px; width: 720px"></div>`);
      const shown = await mountGallery(parent);
      for (const [name, el] of Object.entries(shown)) {
        try {
          await expect(el).to.be.accessible();
        } catch (error) {
          throw new Error(`${name} on a ${page} page: ${(error as Error).message}`);
        }
      }
    });
  }

  it('follows the page’s color-scheme: dark surfaces under color-scheme: dark, light ones otherwise', async () => {
    const dark = await fixture<HTMLDivElement>(html`<div style=${PAGES['dark (color-scheme: dark)']}></div>`);
    const plain = await fixture<HTMLDivElement>(html`<div style=${PAGES['dark (light text only)']}></div>`);
    const a = document.createElement('svc-uploader');
    const b = document.createElement('svc-uploader');
    dark.append(a);
    plain.append(b);
    expect(getComputedStyle(a).backgroundColor).to.equal('rgb(27, 29, 33)');
    expect(getComputedStyle(a).color).to.equal('rgb(227, 229, 232)');
    expect(getComputedStyle(b).backgroundColor).to.equal('rgb(255, 255, 255)');
    expect(getComputedStyle(b).color).to.equal('rgb(29, 33, 41)');
  });
});
