// Whether a file may be uploaded at all, checked before any signature is asked for: not empty, of an
// accepted type, not over the size limit. DOM-free.

/** Whether a file matches an `accept` list (`video/*`, `video/mp4`, `.mkv`, comma-separated). */
export function acceptsFile(accept: string, file: { name: string; type: string }): boolean {
  const tokens = accept
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
  if (tokens.length === 0) return true;
  const type = file.type.toLowerCase();
  const name = file.name.toLowerCase();
  return tokens.some((token) => {
    if (token.startsWith('.')) return name.endsWith(token);
    if (token.endsWith('/*')) return type.startsWith(token.slice(0, -1));
    return type === token;
  });
}

export type FileRejection = 'empty' | 'type' | 'size';

/** Why a file cannot be uploaded (checked before any signature is asked for), or undefined. */
export function checkFile(
  file: { name: string; type: string; size: number },
  rules: { accept?: string; maxSize?: number },
): FileRejection | undefined {
  if (file.size === 0) return 'empty';
  if (rules.accept && !acceptsFile(rules.accept, file)) return 'type';
  if (rules.maxSize !== undefined && file.size > rules.maxSize) return 'size';
  return undefined;
}
