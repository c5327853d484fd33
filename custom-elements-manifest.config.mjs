// `npm run analyze` (cem analyze) writes custom-elements.json from the elements' class JSDoc.
// packagejson: false, so a run never rewrites package.json (test/custom-elements.test.ts analyzes
// without writing anything and compares with the committed file).
export default {
  globs: ['src/elements/**/*.ts'],
  // Translations are data loaded by the elements, not API.
  exclude: ['src/elements/**/*.styles.ts', 'src/elements/locales/**'],
  litelement: true,
  packagejson: false,
  plugins: [
    {
      // The analyzer lists modules in file-system order, which differs between machines.
      name: 'svc-sort-modules',
      packageLinkPhase({ customElementsManifest }) {
        customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      },
    },
  ],
};
