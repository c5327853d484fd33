// The rules of the channel form and the checks of the relay's answers, DOM-free (tested in Node).
import { SvcError } from '../../core/errors.js';
import type { RelayConfig } from '../../core/relay-client.js';
import { REGIONS, RENDITION_COUNT, type Channel, type ChannelCreateRequest, type Region } from '../../service/types.js';

export type Field = keyof ChannelCreateRequest;
/** Why a field is not valid; the element turns it into a message in the viewer's language. */
export type Problem = 'required' | 'too_long' | 'out_of_range' | 'refused';
export type Problems = Partial<Record<Field, Problem>>;
export type Limits = Pick<RelayConfig, 'regions' | 'rendition_count'>;

/** What the form shows until (or unless) `GET /svc/config` answers: the seed's values. */
export const DEFAULT_LIMITS: Limits = { regions: [...REGIONS], rendition_count: { ...RENDITION_COUNT } };

/** The service's longest title and description (src/service/schemas.ts). */
export const MAX_LENGTH = { title: 255, description: 5000 } as const;

/** The form's values as they would be sent. */
export function request(values: { title: string; description: string; region: string; renditions: number }): ChannelCreateRequest {
  return {
    title: values.title.trim(),
    description: values.description,
    region: values.region as Region,
    rendition_count: values.renditions,
  };
}

/** What is wrong with `values` within `limits`; empty when they may be sent. */
export function problems(values: ChannelCreateRequest, limits: Limits): Problems {
  const found: Problems = {};
  const { min, max } = limits.rendition_count;
  const count = values.rendition_count;
  if (!values.title) found.title = 'required';
  else if (values.title.length > MAX_LENGTH.title) found.title = 'too_long';
  if (values.description.length > MAX_LENGTH.description) found.description = 'too_long';
  if (!limits.regions.includes(values.region)) found.region = 'required';
  if (!Number.isInteger(count) || count < min || count > max) found.rendition_count = 'out_of_range';
  return found;
}

/**
 * The fields the relay refused (its 400 `fields`), each with the form's own reason where the form
 * knows one (the relay's English sentences are never shown); other names are left out.
 */
export function refusedFields(fields: Record<string, string> | undefined, values: ChannelCreateRequest, limits: Limits): Problems {
  const known = problems(values, limits);
  const found: Problems = {};
  for (const name of Object.keys(fields ?? {})) {
    if (Object.hasOwn(values, name)) found[name as Field] = known[name as Field] ?? 'refused';
  }
  return found;
}

/** The relay's answer must carry what the panel shows; anything else is an error, not a blank panel. */
export function checkChannel(value: unknown): Channel {
  const channel = value as Channel;
  const config = channel?.config;
  const texts = [
    channel?.id,
    config?.publishing_point_primary,
    config?.publishing_point_backup ?? '',
    config?.stream_name,
    config?.login,
    config?.password,
  ];
  if (!texts.every((text) => typeof text === 'string')) {
    throw new SvcError('upstream_rejected', 'The relay answered without the channel’s ingest settings.');
  }
  return channel;
}

/** The regions and rendition range of `GET /svc/config`. */
export function checkLimits(config: RelayConfig): Limits {
  const { regions, rendition_count: range } = config ?? {};
  const valid =
    Array.isArray(regions) &&
    regions.length > 0 &&
    regions.every((region) => typeof region === 'string') &&
    Number.isInteger(range?.min) &&
    Number.isInteger(range?.max) &&
    range.min <= range.max;
  if (!valid) throw new SvcError('internal', 'The relay’s settings have no regions or rendition range.');
  return { regions, rendition_count: { min: range.min, max: range.max } };
}
