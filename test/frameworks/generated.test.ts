// The framework entry points are generated from custom-elements.json; this fails when an element's
// documented API changed and `npm run analyze` was not run, so the types never drift from the tags.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { elementsOf, frameworkFiles, reactEventProp } from '../../scripts/build-framework-types.js';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('custom-elements.json', root), 'utf8'));

test('every generated framework file is what npm run analyze writes from the manifest', () => {
  const files = frameworkFiles(manifest);
  assert.deepEqual(Object.keys(files).sort(), ['src/frameworks/jsx.ts', 'src/frameworks/svelte.ts', 'src/frameworks/vue.ts', 'src/react/index.ts']);
  for (const [path, text] of Object.entries(files)) {
    assert.equal(readFileSync(new URL(path, root), 'utf8'), text, `${path} is stale: run npm run analyze`);
  }
});

test('every tag and every event of the manifest is typed in each framework', () => {
  const elements = elementsOf(manifest);
  assert.deepEqual(elements.map((e) => e.tag), ['svc-channel-setup', 'svc-player', 'svc-playlist-editor', 'svc-uploader']);
  const files = frameworkFiles(manifest);
  for (const element of elements) {
    assert.ok(element.events.includes('svc-error'), `${element.tag} fires svc-error`);
    for (const event of element.events) {
      assert.match(files['src/react/index.ts']!, new RegExp(`${reactEventProp(event)}: '${event}'`));
      assert.match(files['src/frameworks/jsx.ts']!, new RegExp(`'on${event}'\\?:`));
      assert.match(files['src/frameworks/svelte.ts']!, new RegExp(`'on:${event}'\\?:`));
      assert.match(files['src/frameworks/vue.ts']!, new RegExp(`'${event}': (HTMLElementEventMap|Event)`));
    }
    for (const attribute of element.attributes) {
      if (attribute.name !== attribute.field) assert.match(files['src/frameworks/jsx.ts']!, new RegExp(`'${attribute.name}'\\?:`));
    }
  }
  assert.equal(reactEventProp('svc-upload-ready'), 'onSvcUploadReady');
  assert.equal(reactEventProp('play'), 'onPlay');
  assert.equal(reactEventProp('timeupdate'), 'onTimeUpdate', 'as React names it on <video>');
});
