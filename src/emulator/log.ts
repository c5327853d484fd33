// JSON-lines logger on stderr (the CLI's); silent by default in-process, so tests stay quiet.
export interface Logger {
  info(event: string, data?: Record<string, unknown>): void;
  warn(event: string, data?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info() {}, warn() {} };

export function jsonLogger(write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const emit = (level: string, event: string, data: Record<string, unknown> = {}) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, event, ...data }) + '\n');
  return { info: (event, data) => emit('info', event, data), warn: (event, data) => emit('warn', event, data) };
}
