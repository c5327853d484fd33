// A page's text settings do not leak into the elements: each element lays out the same inside a
// hostile container (centred, `white-space: pre`, wide letter and word spacing, `direction: rtl` on
// an LTR page, tall lines, upper case, indent, bold italic) as inside a plain one of the same width
// and font. Compared on every box of each element's shadow tree, relative to its host.
import { expect, fixture, html } from '@open-wc/testing';
import { mountGallery } from './gallery.js';

declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;
declare const it: (name: string, body: () => Promise<void>) => void;

const PLAIN = 'width: 720px; font: 16px/1.2 sans-serif';
const HOSTILE = `${PLAIN}; text-align: center; white-space: pre; letter-spacing: 0.4em; word-spacing: 1.5em; direction: rtl;
  line-height: 3; text-transform: uppercase; text-indent: 5em; font-style: italic; font-weight: 700`;

type Box = { what: string; x: number; y: number; width: number; height: number };

/** Every laid-out box of the element's shadow tree (and the host's size), relative to the host. */
function layout(host: HTMLElement): Box[] {
  const origin = host.getBoundingClientRect();
  const boxes: Box[] = [{ what: 'host', x: 0, y: 0, width: origin.width, height: origin.height }];
  const nodes = host.shadowRoot!.querySelectorAll<HTMLElement>('*');
  nodes.forEach((node, index) => {
    const r = node.getBoundingClientRect();
    if (['STYLE', 'SLOT'].includes(node.tagName) || (r.width === 0 && r.height === 0)) return;
    const what = `${index} <${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${node.className && typeof node.className === 'string' ? `.${node.className}` : ''}> "${(node.textContent ?? '').trim().slice(0, 30)}"`;
    boxes.push({ what, x: r.x - origin.x, y: r.y - origin.y, width: r.width, height: r.height });
  });
  return boxes;
}

/** The boxes that moved or changed size by more than a pixel. */
function differences(plain: Box[], hostile: Box[]): string[] {
  const off = (a: number, b: number) => Math.abs(a - b) > 1;
  return plain.flatMap((box, i) => {
    const other = hostile[i];
    if (!other) return [`${box.what}: missing`];
    const moved = off(box.x, other.x) || off(box.y, other.y) || off(box.width, other.width) || off(box.height, other.height);
    const at = (b: Box) => `${b.x.toFixed(0)},${b.y.toFixed(0)} ${b.width.toFixed(0)}×${b.height.toFixed(0)}`;
    return moved ? [`${box.what}: ${at(box)} → ${at(other)}`] : [];
  });
}

describe('typography: a page’s text settings do not leak into the elements', function () {
  this.timeout(90_000);

  it('every element lays out the same in a hostile container as in a plain one', async () => {
    const plain = await fixture<HTMLDivElement>(html`<div style=${PLAIN}></div>`);
    const hostile = await fixture<HTMLDivElement>(html`<div style=${HOSTILE}></div>`);
    const a = await mountGallery(plain);
    const b = await mountGallery(hostile);
    // Rows out of view are laid out at an estimated size (content-visibility: auto) until they have
    // been in view once, then at their own: show each element whole once, top and bottom, first.
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (const host of [...Object.values(a), ...Object.values(b)]) {
      for (const block of ['start', 'end'] as const) {
        host!.scrollIntoView({ block });
        await frame();
      }
    }
    const found: string[] = [];
    for (const name of Object.keys(a)) {
      const lines = differences(layout(a[name]!), layout(b[name]!));
      if (lines.length) found.push(`${name}:\n  ${lines.slice(0, 8).join('\n  ')}${lines.length > 8 ? `\n  … ${lines.length - 8} more` : ''}`);
    }
    expect(found, found.join('\n')).to.deep.equal([]);
    // The comparison saw real content: each element has boxes with text in them.
    for (const name of Object.keys(a)) expect(layout(a[name]!).length, `${name} boxes`).to.be.greaterThan(2);
  });
});
