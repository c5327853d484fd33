// The POST-policy verifier, table-driven: each condition form S3 knows, and each way a form or a
// policy can be wrong, with the S3 error code it must produce.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { amzDate, S3Error, signPolicy, signingKey, verifyPostForm, type PolicyCondition } from '../../src/emulator/s3-post.js';

const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret/key+1', region: 'eu-west-1' };
const now = new Date('2026-01-02T03:04:05.678Z');
const date = amzDate(now);

/** A form signed over `policy` (any JSON) with the test credentials, plus extra fields. */
function form(policy: unknown, fields: Record<string, string> = {}, encoded?: string): Map<string, string> {
  const policyBase64 = encoded ?? Buffer.from(JSON.stringify(policy)).toString('base64');
  const base: Record<string, string> = {
    key: 'uploads/a.mp4',
    'x-amz-algorithm': 'AWS4-HMAC-SHA256',
    'x-amz-credential': `AKIDTEST/${date.slice(0, 8)}/eu-west-1/s3/aws4_request`,
    'x-amz-date': date,
    policy: policyBase64,
    'x-amz-signature': signPolicy(policyBase64, credentials.secretAccessKey, date.slice(0, 8), 'eu-west-1'),
  };
  return new Map(Object.entries({ ...base, ...fields }));
}

const covering: PolicyCondition[] = [
  { key: 'uploads/a.mp4' },
  { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
  { 'x-amz-credential': `AKIDTEST/${date.slice(0, 8)}/eu-west-1/s3/aws4_request` },
  { 'x-amz-date': date },
];
const policy = (...conditions: PolicyCondition[]) => ({ expiration: '2026-01-02T04:00:00Z', conditions: [...covering, ...conditions] });
const verify = (fields: Map<string, string>) => verifyPostForm(fields, credentials, { now, maxBytes: 5000, bucket: 'b' });

function codeOf(fields: Map<string, string>): string {
  try {
    verify(fields);
    return 'accepted';
  } catch (error) {
    assert.ok(error instanceof S3Error, String(error));
    return error.code;
  }
}

describe('SigV4 POST policy', () => {
  it('derives the signing key as AWS documents it (HMAC chain, test vector)', () => {
    // AWS's published example key derivation (Signature Version 4, "Deriving the signing key").
    const key = signingKey('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', '20120215', 'us-east-1', 'iam');
    assert.equal(key.toString('hex'), 'f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d');
  });

  it('formats x-amz-date in basic ISO 8601', () => {
    assert.equal(date, '20260102T030405Z');
  });

  it('accepts every condition form S3 knows', () => {
    const fields = form(
      policy(
        ['eq', '$acl', 'public-read'],
        ['starts-with', '$Content-Type', 'video/'],
        { bucket: 'b' },
        ['content-length-range', 10, 100],
      ),
      { acl: 'public-read', 'content-type': 'video/mp4', 'x-ignore-me': 'yes' },
    );
    assert.deepEqual(verify(fields), { minBytes: 10, maxBytes: 100 });
  });

  it('rejects each bad form with the matching S3 code', () => {
    const good = policy({ acl: 'private' });
    const cases: [string, Map<string, string>, string][] = [
      ['tampered field', form(good, { acl: 'public-read' }), 'AccessDenied'],
      ['field outside the policy', form(good, { acl: 'private', extra: '1' }), 'AccessDenied'],
      ['missing conditioned field', form(good), 'AccessDenied'],
      ['starts-with not met', form(policy(['starts-with', '$key', 'other/'])), 'AccessDenied'],
      ['expired', form({ ...good, expiration: '2026-01-02T03:04:05Z' }, { acl: 'private' }), 'AccessDenied'],
      ['bucket of the request differs', form(policy({ bucket: 'other' })), 'AccessDenied'],
      ['not JSON', form(null, {}, Buffer.from('{oops').toString('base64')), 'InvalidPolicyDocument'],
      ['no expiration', form({ conditions: [] }), 'InvalidPolicyDocument'],
      ['bad expiration', form({ expiration: 'soon', conditions: [] }), 'InvalidPolicyDocument'],
      ['bad range', form(policy(['content-length-range', 10, 1])), 'InvalidPolicyDocument'],
      ['unknown operator', form(policy(['matches', '$key', '.*'] as unknown as PolicyCondition)), 'InvalidPolicyDocument'],
    ];
    for (const [name, fields, code] of cases) assert.equal(codeOf(fields), code, name);
  });

  it('rejects bad signature fields with the matching S3 code', () => {
    const fields = () => form(policy());
    const set = (name: string, value: string) => {
      const f = fields();
      f.set(name, value);
      return f;
    };
    const without = (name: string) => {
      const f = fields();
      f.delete(name);
      return f;
    };
    const flipped = fields().get('x-amz-signature')!.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const cases: [string, Map<string, string>, string][] = [
      ['accepted as is', fields(), 'accepted'],
      ['upper-case hex signature', set('x-amz-signature', fields().get('x-amz-signature')!.toUpperCase()), 'accepted'],
      ['one digit changed', set('x-amz-signature', flipped), 'SignatureDoesNotMatch'],
      ['short signature', set('x-amz-signature', 'abc'), 'SignatureDoesNotMatch'],
      ['no signature', without('x-amz-signature'), 'AccessDenied'],
      ['no policy', without('policy'), 'AccessDenied'],
      ['no key', without('key'), 'InvalidArgument'],
      ['other algorithm', set('x-amz-algorithm', 'AWS4-HMAC-SHA1'), 'InvalidArgument'],
      ['unknown key id', set('x-amz-credential', `OTHER/${date.slice(0, 8)}/eu-west-1/s3/aws4_request`), 'InvalidAccessKeyId'],
      ['other region', set('x-amz-credential', `AKIDTEST/${date.slice(0, 8)}/us-east-1/s3/aws4_request`), 'InvalidArgument'],
      ['malformed credential', set('x-amz-credential', 'AKIDTEST/today'), 'InvalidArgument'],
      ['date not of the credential', set('x-amz-date', '20250101T000000Z'), 'InvalidArgument'],
    ];
    for (const [name, f, code] of cases) assert.equal(codeOf(f), code, name);
  });
});
