// The channel as it may leave the element in an event: without the encoder credentials.
import type { Channel, ChannelConfig } from '../../service/types.js';

export type PublicChannelConfig = Omit<ChannelConfig, 'login' | 'password' | 'stream_name'>;

/** A channel without `config.login`, `config.password`, `config.stream_name` and `password`. */
export type PublicChannel = Omit<Channel, 'config' | 'password'> & { config: PublicChannelConfig };

export function publicChannel(channel: Channel): PublicChannel {
  const { password: _password, config, ...rest } = channel;
  const { login: _login, password: _configPassword, stream_name: _streamName, ...publicConfig } = config;
  return structuredClone({ ...rest, config: publicConfig });
}
