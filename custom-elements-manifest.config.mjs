// `npm run analyze` (cem analyze) writes custom-elements.json from the elements' class JSDoc.
// packagejson: false, so a run never rewrites package.json (test/custom-elements.test.ts analyzes
// without writing anything and compares with the committed file).
const stateProperties = new Map();
/** By `path#Class`: the strings type an element gives the kernel, and its own `state` getter's type. */
const kernelTypes = new Map();

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
      // The kernel (shared/svc-element-core.ts) declares `strings` as `StringsOverride<S>` and `state`
      // as `string`; each element says what they are (`extends SvcElement<SvcUploaderStrings>`, its
      // own `get state()`), which the analyzer does not follow into inherited members.
      name: 'svc-kernel-types',
      analyzePhase({ ts, node, moduleDoc }) {
        if (!ts.isClassDeclaration(node) || !node.name) return;
        const base = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
        if (!/^SvcElement(Core)?$/.test(base?.expression.getText() ?? '')) return;
        const state = node.members.find((m) => ts.isGetAccessor(m) && m.name.getText() === 'state');
        kernelTypes.set(`${moduleDoc.path}#${node.name.text}`, { strings: base.typeArguments?.[0]?.getText(), state: state?.type?.getText() });
      },
      packageLinkPhase({ customElementsManifest }) {
        for (const moduleDoc of customElementsManifest.modules) {
          for (const declaration of moduleDoc.declarations ?? []) {
            const types = kernelTypes.get(`${moduleDoc.path}#${declaration.name}`);
            if (!types) continue;
            for (const member of declaration.members ?? []) {
              if (member.name === 'strings' && types.strings && member.type) member.type = { ...member.type, text: member.type.text.replace(/<S>$/, `<${types.strings}>`) };
              if (member.name === 'state' && types.state) {
                member.type = { text: types.state };
                delete member.inheritedFrom;
              }
            }
          }
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
