// The rules of the channel form, DOM-free (tested in Node).
import type { RelayConfig } from '../../core/relay-client.js';
import { REGIONS, RENDITION_COUNT, type ChannelCreateRequest, type Region } from '../../service/types.js';

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
