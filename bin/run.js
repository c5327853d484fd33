// Runs a CLI compiled to dist/ (`npm run build`, run by `npm pack` on prepack); in a checkout where
// dist/ was never built, its source instead (scripts/run-source.js, not packed), so that
// `npm install` alone is enough there. The server packages are optional peer dependencies (see the
// README's install section): when one is missing, says which to install instead of printing a
// module-resolution stack trace.
import { existsSync } from 'node:fs';

/**
 * @param {string} name the command, for messages
 * @param {string} entry the compiled CLI, relative to this folder
 * @param {string[]} needs the packages the CLI imports
 */
export async function runCli(name, entry, needs) {
  const missing = needs.filter((pkg) => {
    try {
      import.meta.resolve(pkg);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length) {
    process.stderr.write(
      `${name}: missing server packages (optional peer dependencies of svc-elements).\n` +
        `Install them next to svc-elements:\n\n  npm install ${missing.join(' ')}\n`,
    );
    process.exit(1);
  }
  const compiled = new URL(entry, import.meta.url);
  if (existsSync(compiled)) return void (await import(compiled.href));
  const checkout = new URL('../scripts/run-source.js', import.meta.url);
  const fromSource = existsSync(checkout) && (await import(checkout.href).catch(() => undefined));
  if (!fromSource) {
    process.stderr.write(`${name}: ${compiled.pathname} is missing; run \`npm run build\` first.\n`);
    process.exit(1);
  }
  await fromSource.runSource(compiled);
}
