// `npm run analyze` (cem analyze) writes custom-elements.json from the elements' class JSDoc.
// packagejson: false, so a run never rewrites package.json (test/custom-elements.test.ts analyzes
// without writing anything and compares with the committed file).
const stateProperties = new Map();

export default {
  globs: ['src/elements/**/*.ts'],
  // Translations are data loaded by the elements, not API.
  exclude: ['src/elements/**/*.styles.ts', 'src/elements/locales/**'],
  litelement: true,
  packagejson: false,
  plugins: [
    {
      // The analyzer makes every entry of Lit's `static properties` an attribute, also internal
      // state (`{state: true}`), which Lit never observes as one: those stay private fields only.
      name: 'svc-state-is-no-attribute',
      analyzePhase({ ts, node, moduleDoc }) {
        if (!ts.isClassDeclaration(node) || !node.name) return;
        const properties = node.members.find((m) => ts.isPropertyDeclaration(m) && m.name.getText() === 'properties' && ts.isObjectLiteralExpression(m.initializer ?? {}));
        const names = (properties?.initializer.properties ?? [])
          .filter((p) => ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(p.initializer))
          .filter((p) => p.initializer.properties.some((o) => o.name?.getText() === 'state' && o.initializer?.kind === ts.SyntaxKind.TrueKeyword))
          .map((p) => p.name.getText());
        if (names.length) stateProperties.set(`${moduleDoc.path}#${node.name.text}`, names);
      },
      moduleLinkPhase({ moduleDoc }) {
        for (const declaration of moduleDoc.declarations ?? []) {
          const names = stateProperties.get(`${moduleDoc.path}#${declaration.name}`);
          if (!names) continue;
          declaration.attributes = declaration.attributes?.filter((a) => !names.includes(a.fieldName));
          for (const member of declaration.members ?? []) if (names.includes(member.name)) delete member.attribute;
        }
      },
    },
    {
      // The analyzer lists modules in file-system order, which differs between machines.
      name: 'svc-sort-modules',
      packageLinkPhase({ customElementsManifest }) {
        customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      },
    },
  ],
};
