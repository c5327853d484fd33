// custom-elements.json is generated (`npm run analyze`) and committed; these tests fail when it is
// out of date with the elements' sources, or when an element's public contract is missing from it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as elements from '../src/elements/index.js';
import { REFERENCE, renderReference, spliceReadme } from '../scripts/build-docs.js';

const root = fileURLToPath(new URL('..', import.meta.url));

interface Declaration {
  name: string;
  tagName?: string;
  customElement?: boolean;
  attributes?: { name: string; fieldName?: string }[];
  events?: { name: string }[];
  cssParts?: { name: string }[];
  cssProperties?: { name: string }[];
}
interface Manifest {
  modules: { path: string; declarations?: Declaration[] }[];
}

/** A fresh analysis with the project's config (custom-elements-manifest.config.mjs), writing nothing. */
function analyze(): Manifest {
  const script = `
    const { cli } = await import('@custom-elements-manifest/analyzer/cli.js');
    const manifest = await cli({ argv: ['analyze', '--quiet'], cwd: process.cwd(), noWrite: true });
    process.stdout.write(JSON.stringify(manifest));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }));
}

const committed = JSON.parse(readFileSync(new URL('../custom-elements.json', import.meta.url), 'utf8')) as Manifest;

test('custom-elements.json is what `npm run analyze` makes from the current sources', () => {
  assert.deepEqual(committed, analyze(), 'custom-elements.json is out of date: run `npm run analyze` and commit it');
});

const TAGS: Record<string, string> = {
  SvcPlayer: 'svc-player',
  SvcUploader: 'svc-uploader',
  SvcPlaylistEditor: 'svc-playlist-editor',
  SvcChannelSetup: 'svc-channel-setup',
};

test('every exported element is in the manifest with its tag, attributes, events, parts and custom properties', () => {
  const declarations = committed.modules.flatMap((module) => module.declarations ?? []).filter((d) => d.customElement);
  assert.deepEqual(Object.keys(elements).sort(), Object.keys(TAGS).sort());
  for (const [name, tag] of Object.entries(TAGS)) {
    const declaration = declarations.find((d) => d.name === name);
    assert.ok(declaration, `${name} is in custom-elements.json`);
    assert.equal(declaration.tagName, tag, `${name} is documented as <${tag}> (@tagname in its class JSDoc)`);
    assert.ok(declaration.attributes?.length, `${name} documents its attributes`);
    assert.ok(declaration.events?.some((event) => event.name === 'svc-error'), `${name} documents svc-error`);
    assert.ok(declaration.cssParts?.length, `${name} documents its parts`);
    const prefix = `--${tag}-`;
    assert.ok(
      declaration.cssProperties?.some((property) => property.name.startsWith(prefix)),
      `${name} documents ${prefix}* custom properties`,
    );
  }
});

test('the attributes of a property are exactly those Lit observes (internal state, `{state: true}`, is none)', () => {
  const declarations = committed.modules.flatMap((module) => module.declarations ?? []);
  for (const [name, element] of Object.entries(elements)) {
    const observed = [...(element as unknown as { observedAttributes: string[] }).observedAttributes].sort();
    const documented = declarations.find((d) => d.name === name)!.attributes!.filter((a) => a.fieldName).map((a) => a.name).sort();
    assert.deepEqual(documented, observed, `${name}: the manifest's property attributes are the ones the element observes`);
  }
});

test("the element reference (docs/elements.md) is the one generated from custom-elements.json", () => {
  const readme = readFileSync(new URL(`../${REFERENCE}`, import.meta.url), 'utf8');
  assert.equal(readme, spliceReadme(readme, renderReference(committed)), `${REFERENCE} is out of date: run \`npm run analyze\``);
  for (const tag of Object.values(TAGS)) assert.match(readme, new RegExp(`### \\\`<${tag}>\\\``));
});

test("each element's `strings` and `state` have its own types in the manifest, not the kernel's `S` and `string`", () => {
  const types: Record<string, [strings: string, state: string]> = {
    'svc-player': ['StringsOverride<SvcPlayerStrings>', 'SvcPlayerState'],
    'svc-uploader': ['StringsOverride<SvcUploaderStrings>', 'SvcUploaderState'],
    'svc-playlist-editor': ['StringsOverride<SvcPlaylistEditorStrings>', "'create' | 'loading' | 'ready' | 'saving' | 'conflict' | 'error'"],
    'svc-channel-setup': ['StringsOverride<SvcChannelSetupStrings>', 'SvcChannelSetupState'],
  };
  const manifest = JSON.parse(readFileSync(new URL('../custom-elements.json', import.meta.url), 'utf8')) as {
    modules: { declarations?: { tagName?: string; members?: { name: string; type?: { text: string } }[] }[] }[];
  };
  for (const [tag, [strings, state]] of Object.entries(types)) {
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === tag)!;
    const typeOf = (name: string) => element.members?.find((m) => m.name === name)?.type?.text;
    assert.deepEqual([typeOf('strings'), typeOf('state')], [strings, state], tag);
  }
});
