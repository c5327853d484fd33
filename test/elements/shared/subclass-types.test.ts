// A user's TypeScript subclass adds reactive properties the decorator-free way, as Lit documents:
//   class MyUploader extends SvcUploader { static override properties = { label: {} }; }
// The elements' own `static properties` are typed PropertyDeclarations for that (inferred from the
// object literal, the subclass's would not be assignable: TS2417). Lit merges them at run time.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('a TypeScript subclass of an element', () => {
  it('may add reactive properties with static properties, for every element', { timeout: 300_000 }, () => {
    const dir = mkdtempSync(join(root, 'test/elements/shared/.tmp-'));
    try {
      const src = (path: string) => JSON.stringify(join(root, 'src/elements', path));
      writeFileSync(
        join(dir, 'subclass.ts'),
        `import { SvcUploader } from ${src('svc-uploader/svc-uploader.js')};
import { SvcPlaylistEditor } from ${src('svc-playlist-editor/svc-playlist-editor.js')};
import { SvcChannelSetup } from ${src('svc-channel-setup/svc-channel-setup.js')};
import { SvcPlayer } from ${src('svc-player/svc-player.js')};
export class A extends SvcUploader { static override properties = { label: {} }; label = ''; }
export class B extends SvcPlaylistEditor { static override properties = { label: {} }; label = ''; }
export class C extends SvcChannelSetup { static override properties = { label: {} }; label = ''; }
export class D extends SvcPlayer { static override properties = { label: {} }; label = ''; }
`,
      );
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(root, 'tsconfig.json'), include: [], files: ['subclass.ts'] }));
      const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
      assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
