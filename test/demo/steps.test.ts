// The demo page and the README tell the same steps in the same order (a channel is created before
// the playlist that holds it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

it('demo/index.html and the README list Upload, Library, Live, Playlists in that order', () => {
  const demo = read('demo/index.html');
  const sections = [...demo.matchAll(/<section id="([a-z]+)"[^>]*>[\s\S]*?<p class="eyebrow">Step (\d)<\/p>\s*<h2[^>]*>([^<]+)<\/h2>/g)].map(
    (m) => `${m[2]} ${m[3]}`,
  );
  const nav = [...demo.matchAll(/<li><a href="#([a-z]+)">/g)].map((m) => m[1]);
  const readme = read('README.md');
  const start = readme.indexOf('## What `npm start` gives you');
  const steps = [...readme.slice(start, readme.indexOf('\n## ', start + 1)).matchAll(/^(\d)\. \*\*([A-Za-z]+)\*\*/gm)].map((m) => `${m[1]} ${m[2]}`);
  assert.deepEqual(steps, ['1 Upload', '2 Library', '3 Live', '4 Playlists']);
  assert.deepEqual(sections, steps);
  assert.deepEqual(nav, ['upload', 'library', 'live', 'playlists']);
});
