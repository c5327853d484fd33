// A small video for uploads: a real one made with ffmpeg (test/support/media.ts) when ffmpeg is
// installed, else stand-in bytes behind an MP4 header (the local service checks the container, it does not decode).
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
    // An MP4 'ftyp' box first: the local service refuses to "encode" what is not a video container.
    writeFileSync(path, Buffer.concat([Buffer.from('000000106674797069736f6d00000000', 'hex'), randomBytes(64 * 1024)]));
  }
  return path;
}
