// The uploader's sizes and accepted-type words (pure functions, run in Node).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeAccept, formatBytes } from '../../../src/elements/svc-uploader/format.js';

describe('formatBytes', () => {
  const cases: [number, string][] = [
    [0, '0 bytes'],
    [1, '1 byte'],
    [2, '2 bytes'],
    [1000, '1,000 bytes'],
    [1023, '1,023 bytes'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [1024 * 1024, '1 MiB'],
    [1.4 * 1024 * 1024, '1.4 MiB'],
    [5 * 1024 ** 3, '5 GiB'], // the documented default limit reads as documented, not "5.4 GB"
    [2 * 1024 ** 4, '2 TiB'],
    [3 * 1024 ** 5, '3,072 TiB'],
    [-5, '0 bytes'],
  ];
  for (const [bytes, text] of cases) it(`${bytes} -> ${text}`, () => assert.equal(formatBytes(bytes, 'en-US'), text));

  it('names bytes in the page language', () => {
    assert.equal(formatBytes(2, 'de'), '2 Byte');
    assert.equal(formatBytes(1536, 'de'), '1,5 KiB');
  });
});

describe('describeAccept', () => {
  const cases: [string, string][] = [
    ['video/*', 'any video format'],
    ['video/mp4', 'MP4'],
    ['video/mp4, .mp4, video/webm', 'MP4, WEBM'],
    ['video/quicktime,video/x-matroska', 'MOV, MKV'],
    ['.mkv, .MOV', 'MKV, MOV'],
    ['video/*,.mkv', 'any video format, MKV'],
  ];
  for (const [accept, text] of cases) it(`${accept} -> ${text}`, () => assert.equal(describeAccept(accept, 'any video format'), text));
  it('lists the types as the viewer\'s language does', () => {
    assert.equal(describeAccept('video/mp4,.mkv,video/quicktime', 'jedes Videoformat', 'de'), 'MP4, MKV und MOV');
    assert.equal(describeAccept('video/mp4,.mkv', 'x', 'en'), 'MP4, MKV');
  });
});
