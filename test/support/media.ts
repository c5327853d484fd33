// Real video files for tests, made with ffmpeg (well under a second each) and cached per run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'svc-media-'));

/** Path of a small playable test video (H.264 mp4 or VP9 webm) of `seconds` length and `size` (width x height, even numbers). */
export function makeVideo(
  options: { seconds?: number; format?: 'mp4' | 'webm'; name?: string; size?: `${number}x${number}` } = {},
): string {
  const { seconds = 2, format = 'mp4', size = '320x180' } = options;
  const path = join(dir, options.name ?? `sample-${seconds}s${size === '320x180' ? '' : `-${size}`}.${format}`);
  if (existsSync(path)) return path;
  const codec =
    format === 'mp4'
      ? ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-preset', 'ultrafast', '-movflags', '+faststart']
      : ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8'];
  execFileSync(
    'ffmpeg',
    ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25:duration=${seconds}`, ...codec, path],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return path;
}
