// What a page downloads before an element is used: the eager part of a code-split build of each
// element (Lit external, so the figure is the element's own code) and of all four with Lit.
// `npx tsx bench/eager-size.ts` prints gzip bytes; `npm run bench` measures the budgets.
import { bundleSplit, litExternal } from './lib/build.js';
import { ELEMENTS } from './bundle-size.js';

for (const tag of ELEMENTS) {
  const split = await bundleSplit({ name: tag, contents: `import './src/elements/${tag}/define.ts';` }, { external: [...litExternal, 'he'] });
  console.log(`${tag}: eager ${split.eager.bytes} B, lazy ${split.lazy.bytes} B (own code, gzip)`);
}
const all = await bundleSplit({ name: 'all', contents: ELEMENTS.map((tag) => `import './src/elements/${tag}/define.ts';`).join('\n') });
console.log(`all four with lit, eager: ${all.eager.bytes} B (${(all.eager.bytes / 1024).toFixed(2)} KB; budget 25 KB)`);
console.log(all.eager.attribution.map((a) => `  ${a.source} ${a.bytes} B minified`).join('\n'));
