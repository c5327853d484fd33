// Which engines a run tests in: every installed one, or those named in SVC_BROWSERS
// (comma-separated, any case: `SVC_BROWSERS=firefox,webkit`).

/** True when `name` is wanted in this run. */
export function engineWanted(name: string): boolean {
  const wanted = process.env.SVC_BROWSERS?.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);
  return !wanted?.length || wanted.includes(name.toLowerCase());
}

/** The one line printed for an engine that cannot run here. */
export function skippedLine(name: string, missing: string[]): string {
  return `${name}: skipped, not installed (missing ${missing.join(', ')})`;
}
