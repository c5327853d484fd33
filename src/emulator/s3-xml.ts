// S3-style XML answers of the upload address.
import { randomBytes } from 'node:crypto';
import type { S3Error } from './s3-post.js';

const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);

const XML = { 'Content-Type': 'application/xml' };

export function s3ErrorResponse(error: S3Error): Response {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${escapeXml(error.code)}</Code><Message>${escapeXml(error.message)}</Message>` +
    `<RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`;
  return new Response(body, { status: error.status, headers: XML });
}

export function postResponse(input: { status: number; location: string; bucket: string; key: string; etag: string }): Response {
  const headers = { ETag: input.etag, Location: input.location };
  if (input.status !== 201) return new Response(null, { status: input.status, headers });
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<PostResponse><Location>${escapeXml(input.location)}</Location><Bucket>${escapeXml(input.bucket)}</Bucket>` +
    `<Key>${escapeXml(input.key)}</Key><ETag>${escapeXml(input.etag)}</ETag></PostResponse>`;
  return new Response(body, { status: 201, headers: { ...XML, ...headers } });
}
