// AWS Signature Version 4 for browser-based POST uploads (S3 "POST policy"): building and signing
// the policy the service hands out, and verifying a posted form the way S3 does. Pure functions
// over strings; the upload origin (upload.ts) feeds them the form fields as they stream in.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const ALGORITHM = 'AWS4-HMAC-SHA256';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** A POST policy condition: `{field: value}` or `[op, "$field", value]` or a length range. */
export type PolicyCondition =
  | Record<string, string>
  | ['eq' | 'starts-with', string, string]
  | ['content-length-range', number, number];

export interface PostPolicy {
  expiration: string;
  conditions: PolicyCondition[];
}

/** An S3 error as the upload address answers it (XML `<Error><Code>`). */
export class S3Error extends Error {
  override name = 'S3Error';
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `yyyymmddThhmmssZ`, the basic ISO 8601 form SigV4 uses. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

/** The SigV4 signing key: HMAC chain "AWS4"+secret -> date -> region -> "s3" -> "aws4_request". */
export function signingKey(secret: string, dateStamp: string, region: string, service = 's3'): Buffer {
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, dateStamp), region), service), 'aws4_request');
}

/** Hex signature of a base64 policy. */
export function signPolicy(policyBase64: string, secret: string, dateStamp: string, region: string): string {
  return createHmac('sha256', signingKey(secret, dateStamp, region)).update(policyBase64, 'utf8').digest('hex');
}

export interface PostFormInput {
  credentials: SigningCredentials;
  bucket: string;
  key: string;
  acl: string;
  successActionStatus: string;
  maxBytes: number;
  now: Date;
  expiresAt: Date;
  /** Temporary credentials: the session token, signed into the policy as x-amz-security-token. */
  securityToken?: string;
}

/**
 * The nine fields of an upload signature, in the seed's order, with a policy binding each of them
 * and a content-length-range; with a session token, a tenth (x-amz-security-token) before the
 * signature, as AWS signs with temporary credentials.
 */
export function createPostForm(input: PostFormInput) {
  const date = amzDate(input.now);
  const dateStamp = date.slice(0, 8);
  const { accessKeyId, secretAccessKey, region } = input.credentials;
  const credential = `${accessKeyId}/${dateStamp}/${region}/s3/aws4_request`;
  const policy: PostPolicy = {
    expiration: input.expiresAt.toISOString(),
    conditions: [
      { acl: input.acl },
      { bucket: input.bucket },
      { key: input.key },
      { success_action_status: input.successActionStatus },
      { 'x-amz-algorithm': ALGORITHM },
      { 'x-amz-credential': credential },
      { 'x-amz-date': date },
      ...(input.securityToken ? [{ 'x-amz-security-token': input.securityToken }] : []),
      ['content-length-range', 1, input.maxBytes],
    ],
  };
  const encoded = Buffer.from(JSON.stringify(policy), 'utf8').toString('base64');
  return {
    acl: input.acl,
    bucket: input.bucket,
    key: input.key,
    policy: encoded,
    success_action_status: input.successActionStatus,
    'x-amz-algorithm': ALGORITHM,
    'x-amz-credential': credential,
    'x-amz-date': date,
    ...(input.securityToken ? { 'x-amz-security-token': input.securityToken } : {}),
    'x-amz-signature': signPolicy(encoded, secretAccessKey, dateStamp, region),
  };
}

/** Form fields by lower-cased name (S3 matches field names case-insensitively). */
export type FormFields = Map<string, string>;

export interface VerifiedPolicy {
  /** Inclusive byte bounds of the file, from content-length-range (or the defaults given). */
  minBytes: number;
  maxBytes: number;
}

function equalHex(a: string, b: string): boolean {
  const left = Buffer.from(a.toLowerCase(), 'utf8');
  const right = Buffer.from(b.toLowerCase(), 'utf8');
  // Same-length buffers for timingSafeEqual; the length itself is not secret (always 64).
  return left.length === right.length && timingSafeEqual(left, right);
}

const denied = (message: string) => new S3Error('AccessDenied', 403, message);
const invalidPolicy = (message: string) => new S3Error('InvalidPolicyDocument', 400, message);

/**
 * Checks the signature and then the policy against the fields of a form. `fields` are the
 * fields received before the file. Throws S3Error; returns the allowed file size range.
 */
export function verifyPostForm(
  fields: FormFields,
  credentials: SigningCredentials,
  options: { now: Date; maxBytes: number; bucket: string; securityToken?: string },
): VerifiedPolicy {
  // Signed with temporary credentials: the session token must come along, and be the right one.
  if (options.securityToken !== undefined && fields.get('x-amz-security-token') !== options.securityToken) {
    throw new S3Error('InvalidToken', 400, 'The provided token is malformed or otherwise invalid.');
  }
  for (const name of ['policy', 'x-amz-signature', 'x-amz-credential', 'x-amz-algorithm', 'x-amz-date']) {
    if (!fields.has(name)) throw denied(`Bucket POST must contain a field named '${name}'.`);
  }
  if (!fields.has('key')) throw new S3Error('InvalidArgument', 400, "Bucket POST must contain a field named 'key'.");
  if (fields.get('x-amz-algorithm') !== ALGORITHM) {
    throw new S3Error('InvalidArgument', 400, `Only ${ALGORITHM} is supported for x-amz-algorithm.`);
  }
  const credential = fields.get('x-amz-credential')!;
  const parts = credential.split('/');
  if (parts.length !== 5 || !/^\d{8}$/.test(parts[1]!) || parts[3] !== 's3' || parts[4] !== 'aws4_request') {
    throw new S3Error('InvalidArgument', 400, 'x-amz-credential must be <key-id>/<yyyymmdd>/<region>/s3/aws4_request.');
  }
  const [keyId, dateStamp, region] = parts as [string, string, string];
  if (keyId !== credentials.accessKeyId) {
    throw new S3Error('InvalidAccessKeyId', 403, 'The access key id in x-amz-credential does not exist in our records.');
  }
  if (region !== credentials.region) {
    throw new S3Error('InvalidArgument', 400, `The region in x-amz-credential is wrong; expecting '${credentials.region}'.`);
  }
  if (!fields.get('x-amz-date')!.startsWith(dateStamp)) {
    throw new S3Error('InvalidArgument', 400, 'x-amz-date does not match the date of x-amz-credential.');
  }
  const policyBase64 = fields.get('policy')!;
  const expected = signPolicy(policyBase64, credentials.secretAccessKey, dateStamp, region);
  if (!equalHex(expected, fields.get('x-amz-signature')!)) {
    throw new S3Error(
      'SignatureDoesNotMatch',
      403,
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
  const policy = decodePolicy(policyBase64);
  const expiration = Date.parse(policy.expiration);
  if (Number.isNaN(expiration)) throw invalidPolicy('Invalid Policy: Invalid expiration date.');
  if (expiration <= options.now.getTime()) throw denied('Invalid according to Policy: Policy expired.');
  return checkConditions(policy.conditions, fields, options);
}

function decodePolicy(policyBase64: string): PostPolicy {
  let policy: unknown;
  try {
    policy = JSON.parse(Buffer.from(policyBase64, 'base64').toString('utf8'));
  } catch {
    throw invalidPolicy('Invalid Policy: Invalid JSON.');
  }
  if (typeof policy !== 'object' || policy === null) throw invalidPolicy('Invalid Policy: not a JSON object.');
  const { expiration, conditions } = policy as Record<string, unknown>;
  if (typeof expiration !== 'string') throw invalidPolicy('Invalid Policy: missing expiration.');
  if (!Array.isArray(conditions)) throw invalidPolicy('Invalid Policy: missing conditions.');
  return { expiration, conditions: conditions as PolicyCondition[] };
}

/** Fields every form may carry without a condition (S3's rules). */
const UNCONDITIONED = new Set(['policy', 'x-amz-signature', 'file']);

function checkConditions(
  conditions: PolicyCondition[],
  fields: FormFields,
  { maxBytes, bucket }: { maxBytes: number; bucket: string },
): VerifiedPolicy {
  const covered = new Set<string>();
  // As in S3, the bucket a condition sees is the request's bucket, with or without a form field.
  const valueOf = (name: string) => (name === 'bucket' ? (fields.get(name) ?? bucket) : fields.get(name));
  let range: VerifiedPolicy = { minBytes: 0, maxBytes };
  const failed = (condition: unknown) =>
    denied(`Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`);
  const fieldName = (ref: unknown) => {
    if (typeof ref !== 'string' || !ref.startsWith('$')) throw invalidPolicy(`Invalid Policy: bad field reference ${JSON.stringify(ref)}.`);
    return ref.slice(1).toLowerCase();
  };
  for (const condition of conditions) {
    if (Array.isArray(condition)) {
      const [op, a, b] = condition as unknown[];
      if (op === 'content-length-range') {
        if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || (a as number) < 0 || (a as number) > (b as number)) {
          throw invalidPolicy('Invalid Policy: content-length-range needs two integers, min <= max.');
        }
        range = { minBytes: a as number, maxBytes: Math.min(b as number, maxBytes) };
        continue;
      }
      if ((op !== 'eq' && op !== 'starts-with') || typeof b !== 'string' || condition.length !== 3) {
        throw invalidPolicy(`Invalid Policy: unsupported condition ${JSON.stringify(condition)}.`);
      }
      const name = fieldName(a);
      covered.add(name);
      const value = valueOf(name) ?? '';
      if (op === 'eq' ? value !== b : !value.startsWith(b)) throw failed(condition);
      continue;
    }
    if (typeof condition !== 'object' || condition === null || Object.keys(condition).length !== 1) {
      throw invalidPolicy(`Invalid Policy: unsupported condition ${JSON.stringify(condition)}.`);
    }
    const [[key, expected]] = Object.entries(condition) as [[string, unknown]];
    if (typeof expected !== 'string') throw invalidPolicy(`Invalid Policy: condition value of ${key} must be a string.`);
    const name = key.toLowerCase();
    covered.add(name);
    if (valueOf(name) !== expected) throw failed(condition);
  }
  for (const name of fields.keys()) {
    if (!UNCONDITIONED.has(name) && !name.startsWith('x-ignore-') && !covered.has(name)) {
      throw denied(`Invalid according to Policy: Extra input fields: ${name}`);
    }
  }
  return range;
}
