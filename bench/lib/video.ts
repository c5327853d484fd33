// A small video for uploads: a real one made with ffmpeg (test/support/media.ts) when ffmpeg is
// installed, else stand-in bytes (the local service only times processing, it does not decode).
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { makeVideo } from '../../test/support/media.js';
import { root } from './proc.js';

let path: string | undefined;

export function sampleVideo(): string {
  if (path) return path;
  try {
    path = makeVideo();
  } catch {
    mkdirSync(`${root}bench/tmp`, { recursive: true });
    path = `${root}bench/tmp/sample.mp4`;
    writeFileSync(path, randomBytes(64 * 1024));
  }
  return path;
}
