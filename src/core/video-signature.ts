// Which video container a file is, from its first bytes ("magic numbers"), so that a file that is
// not a video (a text file renamed `.mp4`, an image, a PDF) is refused before anything is signed.
// DOM-free: bytes in, a container name (or undefined) out.

/** How many leading bytes `videoContainer` needs to decide. */
export const SIGNATURE_BYTES = 512;

export type VideoContainer =
  | 'mp4' // ISO base media: MP4, M4V, MOV with ftyp, 3GP/3G2, MJ2
  | 'quicktime' // classic QuickTime without ftyp
  | 'matroska' // EBML: Matroska, WebM
  | 'mpeg-ts' // MPEG transport stream (188-byte packets), or BDAV M2TS (192)
  | 'mpeg-ps' // MPEG program stream, MPEG-1/2 video
  | 'avi' // RIFF AVI
  | 'flv'
  | 'ogg'
  | 'asf' // ASF: WMV
  | 'realmedia'
  | 'mxf'
  | 'y4m';

/** ISO base media brands that are images or audio, not video. */
const NOT_VIDEO_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis', 'M4A ', 'M4B ', 'M4P ', 'jp2 ', 'jpx ', 'crx ']);

/** QuickTime top-level atoms that may come first in a file without `ftyp`. */
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
const startsWith = (bytes: Uint8Array, ...values: number[]) => values.every((value, i) => bytes[i] === value);

/** Sync bytes 0x47 at `offset` and every `stride` after it, as far as the bytes go (at least twice). */
function transportStream(bytes: Uint8Array, offset: number, stride: number): boolean {
  let seen = 0;
  for (let at = offset; at < bytes.length; at += stride) {
    if (bytes[at] !== 0x47) return false;
    seen++;
  }
  return seen >= 2;
}

/** The video container `bytes` (the file's first bytes, ideally `SIGNATURE_BYTES` of them) begin, or undefined. */
export function videoContainer(bytes: Uint8Array): VideoContainer | undefined {
  if (bytes.length < 12) return undefined;
  const box = ascii(bytes, 4, 8);
  if (box === 'ftyp') return NOT_VIDEO_BRANDS.has(ascii(bytes, 8, 12)) ? undefined : 'mp4';
  if (QUICKTIME_ATOMS.has(box) && new DataView(bytes.buffer, bytes.byteOffset).getUint32(0) >= 8) return 'quicktime';
  if (startsWith(bytes, 0x1a, 0x45, 0xdf, 0xa3)) return 'matroska';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'AVI ') return 'avi';
  if (startsWith(bytes, 0x00, 0x00, 0x01) && (bytes[3] === 0xba || bytes[3] === 0xb3)) return 'mpeg-ps';
  if (ascii(bytes, 0, 3) === 'FLV' && bytes[3] === 0x01) return 'flv';
  if (ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (startsWith(bytes, 0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11)) return 'asf';
  if (ascii(bytes, 0, 4) === '.RMF') return 'realmedia';
  if (startsWith(bytes, 0x06, 0x0e, 0x2b, 0x34, 0x02, 0x05, 0x01, 0x01)) return 'mxf';
  if (ascii(bytes, 0, 10) === 'YUV4MPEG2 ') return 'y4m';
  if (transportStream(bytes, 0, 188) || transportStream(bytes, 4, 192)) return 'mpeg-ts';
  return undefined;
}
