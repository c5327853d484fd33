// Server rendering: Next.js and other renderers import the package on a server with no DOM. Every
// public module must import there without throwing, and react-dom/server must render the React
// components (Lit's DOM shim stands in for HTMLElement and customElements under the "node" condition).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';

test('runs with no DOM', () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
});

test('every element module, the index, the define modules and svc-elements/react import without a DOM', async () => {
  const modules = [
    '../../src/elements/index.js',
    '../../src/elements/define.js',
    '../../src/elements/svc-player/svc-player.js',
    '../../src/elements/svc-player/define.js',
    '../../src/elements/svc-uploader/svc-uploader.js',
    '../../src/elements/svc-uploader/define.js',
    '../../src/elements/svc-playlist-editor/svc-playlist-editor.js',
    '../../src/elements/svc-playlist-editor/define.js',
    '../../src/elements/svc-channel-setup/svc-channel-setup.js',
    '../../src/elements/svc-channel-setup/define.js',
    '../../src/react/index.js',
    '../../src/core/index.js',
  ];
  for (const path of modules) await assert.doesNotReject(import(path), path);
  const index = await import('../../src/elements/index.js');
  assert.deepEqual(Object.keys(index).sort(), ['SvcChannelSetup', 'SvcPlayer', 'SvcPlaylistEditor', 'SvcUploader']);
});

test("react-dom/server renders a page with the React components and the plain tags", async () => {
  const { SvcChannelSetup, SvcPlayer, SvcPlaylistEditor, SvcUploader } = await import('../../src/react/index.js');
  const html = renderToString(
    createElement(
      'main',
      null,
      createElement(SvcUploader, { multiple: true, accept: 'video/*', onSvcUploadReady: () => {} }),
      createElement(SvcPlayer, { kind: 'vod', contentId: '12', onSvcPlayerReady: () => {} }),
      createElement(SvcPlaylistEditor, { playlistId: '7' }),
      createElement(SvcChannelSetup, {}),
      createElement('svc-player', { kind: 'playlist', 'content-id': '5' }),
    ),
  );
  assert.match(html, /^<main><svc-uploader[^>]*><\/svc-uploader><svc-player[^>]*><\/svc-player><svc-playlist-editor[^>]*><\/svc-playlist-editor><svc-channel-setup[^>]*><\/svc-channel-setup>/);
  // Attributes of the plain tag are server-rendered; the components set properties once hydrated.
  assert.match(html, /<svc-player kind="playlist" content-id="5"><\/svc-player><\/main>$/);
});
