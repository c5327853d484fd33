// The README's table of what each kind of page costs through the script tag is written by
// `npm run bench` (group 9) from bench/results.json: this fails when the two disagree (a table
// edited by hand, or results committed without the README they wrote).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SCRIPT_TAG_MARKERS, scriptTagCosts } from '../bench/lib/doc.js';
import type { Row } from '../bench/lib/report.js';
import { spliceReadme } from '../scripts/build-docs.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

test("the README's script-tag costs are group 9 of bench/results.json, each with its spread", () => {
  const { figures } = JSON.parse(read('bench/results.json')) as { figures: Row[] };
  const costs = scriptTagCosts(figures);
  assert.ok(costs, 'bench/results.json has no figure of group 9');
  const readme = read('README.md');
  assert.equal(readme, spliceReadme(readme, costs, SCRIPT_TAG_MARKERS), 'README.md is out of date: run `npm run bench -- --only=wire --update`');
  // Every budget of the script-tag path, each a median with its lowest and highest run.
  for (const page of ['20 click-to-load players before any click', 'below the fold', 'an uploader alone', 'until `svc-player-ready`', 'all four elements', 'a click on one of 20']) {
    assert.match(costs, new RegExp(`\\| [^|\\n]*${page.replace(/[`]/g, '.')}[^|\\n]* \\| [\\d.]+ (KB|ms) \\([\\d.]+–[\\d.]+, \\d+ runs\\)`), page);
  }
});
