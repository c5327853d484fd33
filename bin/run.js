// Runs a CLI compiled to dist/ (`npm run build`, run by `npm pack` on prepack). The server
// packages are optional peer dependencies (see the README's install section): when one is
// missing, says which to install instead of printing a module-resolution stack trace.
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
  const url = new URL(entry, import.meta.url);
  try {
    await import(url.href);
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(url.pathname)) {
      process.stderr.write(`${name}: ${url.pathname} is missing; in a checkout, run \`npm run build\` first.\n`);
      process.exit(1);
    }
    throw error;
  }
}
