// Runs a CLI compiled to dist/ (`npm run build`, run by `npm pack` on prepack); in a checkout where
// dist/ was never built, or is older than a source file (a build left by an earlier `npm pack`, then
// an edit or a pull), its source instead (scripts/run-source.js, not packed), so that `npm install`
// alone is enough there and a checkout never runs stale code. The server packages are optional peer dependencies (see the
// README's install section): when one is missing, says which to install instead of printing a
// module-resolution stack trace.
import { existsSync, readdirSync, statSync } from 'node:fs';

/** The newest modification time of a file under `dir` (0 when there is none). */
function newest(dir) {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = new URL(`${entry.name}${entry.isDirectory() ? '/' : ''}`, dir);
    time = Math.max(time, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return time;
}

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
  const checkout = new URL('../scripts/run-source.js', import.meta.url);
  const sources = new URL('../src/', import.meta.url);
  const stale = existsSync(checkout) && existsSync(sources) && existsSync(compiled) && statSync(compiled).mtimeMs < newest(sources);
  if (existsSync(compiled) && !stale) return void (await import(compiled.href));
  const fromSource = existsSync(checkout) && (await import(checkout.href).catch(() => undefined));
  if (!fromSource) {
    process.stderr.write(`${name}: ${compiled.pathname} is missing; run \`npm run build\` first.\n`);
    process.exit(1);
  }
  await fromSource.runSource(compiled);
}
