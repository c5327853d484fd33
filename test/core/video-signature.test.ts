// The content check of uploads: which files begin like a video container. Hand-made heads for each
// signature and its near misses, then real files of every container ffmpeg writes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIGNATURE_BYTES, videoContainer } from '../../src/core/video-signature.js';

/** Bytes from numbers and latin-1 strings, padded with zeros to `length`. */
function bytes(parts: (number | string)[], length = 64): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'number') out.push(part);
    else for (const char of part) out.push(char.charCodeAt(0));
  }
  while (out.length < length) out.push(0);
  return Uint8Array.from(out);
}

function transportStream(packet: number, offset: number, packets = 3): Uint8Array {
  const out = new Uint8Array(packet * packets);
  for (let i = 0; i < packets; i++) out[offset + i * packet] = 0x47;
  return out;
}

describe('videoContainer', () => {
  const cases: [string, Uint8Array, string | undefined][] = [
    ['MP4 (isom)', bytes([0, 0, 0, 0x20, 'ftypisom', 0, 0, 2, 0, 'isomiso2avc1mp41']), 'mp4'],
    ['MOV with ftyp', bytes([0, 0, 0, 0x14, 'ftypqt  ', 0, 0, 2, 0, 'qt  ']), 'mp4'],
    ['3GP', bytes([0, 0, 0, 0x18, 'ftyp3gp4', 0, 0, 2, 0, '3gp4']), 'mp4'],
    ['M4V', bytes([0, 0, 0, 0x18, 'ftypM4V ', 0, 0, 2, 0]), 'mp4'],
    ['classic QuickTime (moov first)', bytes([0, 0, 0x10, 0, 'moov']), 'quicktime'],
    ['classic QuickTime (wide, mdat)', bytes([0, 0, 0, 8, 'wide', 0, 0, 0x10, 0, 'mdat']), 'quicktime'],
    ['WebM', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 'B', 0xf7, 0x81, 1, 'webm']), 'matroska'],
    ['Matroska', bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x86, 0x81, 0x01, 'matroska']), 'matroska'],
    ['AVI', bytes(['RIFF', 0x10, 0, 0, 0, 'AVI LIST']), 'avi'],
    ['MPEG program stream', bytes([0, 0, 1, 0xba, 0x44]), 'mpeg-ps'],
    ['MPEG-1 video', bytes([0, 0, 1, 0xb3, 0x14]), 'mpeg-ps'],
    ['MPEG-TS', transportStream(188, 0), 'mpeg-ts'],
    ['BDAV M2TS', transportStream(192, 4), 'mpeg-ts'],
    ['FLV', bytes(['FLV', 1, 5, 0, 0, 0, 9]), 'flv'],
    ['Ogg', bytes(['OggS', 0, 2]), 'ogg'],
    ['ASF / WMV', bytes([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9]), 'asf'],
    ['RealMedia', bytes(['.RMF', 0, 0, 0, 0x12]), 'realmedia'],
    ['MXF', bytes([0x06, 0x0e, 0x2b, 0x34, 0x02, 0x05, 0x01, 0x01, 0x0d, 0x01]), 'mxf'],
    ['YUV4MPEG2', bytes(['YUV4MPEG2 W320 H180']), 'y4m'],
    // Not videos.
    ['text renamed .mp4', new TextEncoder().encode('This is not a video, only some text in a file named clip.mp4.\n'), undefined],
    ['HTML', new TextEncoder().encode('<!doctype html><html><head><title>x</title></head></html>'), undefined],
    ['PNG', bytes([0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'IHDR']), undefined],
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'JFIF']), undefined],
    ['GIF', bytes(['GIF89a']), undefined],
    ['PDF', bytes(['%PDF-1.7\n']), undefined],
    ['ZIP', bytes(['PK', 3, 4, 20, 0]), undefined],
    ['MP3 (ID3)', bytes(['ID3', 4, 0, 0]), undefined],
    ['WAV (RIFF, not AVI)', bytes(['RIFF', 0x10, 0, 0, 0, 'WAVEfmt ']), undefined],
    ['HEIC image (ftyp heic)', bytes([0, 0, 0, 0x18, 'ftypheic', 0, 0, 0, 0, 'mif1heic']), undefined],
    ['AVIF image (ftyp avif)', bytes([0, 0, 0, 0x1c, 'ftypavif', 0, 0, 0, 0]), undefined],
    ['M4A audio', bytes([0, 0, 0, 0x20, 'ftypM4A ', 0, 0, 0, 0]), undefined],
    ['a lone 0x47 byte', bytes([0x47, 'ood morning']), undefined],
    ['0x47 at 0 but not at 188', (() => { const b = transportStream(188, 0); b[188] = 0; return b; })(), undefined],
    ['moov atom with a size under 8', bytes([0, 0, 0, 1, 'moov']), undefined],
    ['zeros', new Uint8Array(512), undefined],
    ['too short', bytes(['ftyp'], 8), undefined],
    ['empty', new Uint8Array(0), undefined],
  ];
  for (const [name, head, expected] of cases) {
    it(`${name} -> ${expected ?? 'not a video'}`, () => assert.equal(videoContainer(head), expected));
  }

  it('reads a view into a larger buffer at its own offset', () => {
    const whole = bytes(['junk', 0, 0, 0, 0x20, 'ftypisom'], 64);
    assert.equal(videoContainer(whole.subarray(4)), 'mp4');
  });
});

describe('videoContainer on files ffmpeg writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-containers-'));
  const head = (path: string) => {
    const buffer = Buffer.alloc(SIGNATURE_BYTES);
    const fd = openSync(path, 'r');
    const read = readSync(fd, buffer, 0, SIGNATURE_BYTES, 0);
    closeSync(fd);
    return new Uint8Array(buffer.subarray(0, read));
  };
  const files: [string, string[], string][] = [
    ['clip.mp4', ['-c:v', 'libx264', '-preset', 'ultrafast'], 'mp4'],
    ['clip.mov', ['-c:v', 'libx264', '-preset', 'ultrafast'], 'mp4'],
    ['clip.3gp', ['-c:v', 'h263', '-s', '176x144'], 'mp4'],
    ['clip.webm', ['-c:v', 'libvpx', '-deadline', 'realtime'], 'matroska'],
    ['clip.mkv', ['-c:v', 'mpeg4'], 'matroska'],
    ['clip.ts', ['-c:v', 'mpeg2video'], 'mpeg-ts'],
    ['clip.mpg', ['-c:v', 'mpeg2video'], 'mpeg-ps'],
    ['clip.avi', ['-c:v', 'mpeg4'], 'avi'],
    ['clip.flv', ['-c:v', 'flv1'], 'flv'],
    ['clip.ogv', ['-c:v', 'libtheora'], 'ogg'],
    ['clip.wmv', ['-c:v', 'wmv2'], 'asf'],
  ];
  for (const [name, codec, expected] of files) {
    it(`${name} -> ${expected}`, () => {
      const path = join(dir, name);
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=176x144:rate=10:duration=0.5', ...codec, path], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      assert.equal(videoContainer(head(path)), expected);
    });
  }
});
