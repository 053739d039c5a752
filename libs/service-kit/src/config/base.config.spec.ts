import { IsString } from 'class-validator';
import { BaseConfig, EmptySwitchesOff, Secret, loadConfig } from './base.config';

class TestConfig extends BaseConfig {
  override PORT = 3999;

  @IsString()
  @Secret()
  SIGNING_SECRET = 'dev-secret';

  @IsString()
  @EmptySwitchesOff()
  RELAY_URL = 'smtp://127.0.0.1:2526';
}

describe('loadConfig', () => {
  it('uses defaults for unset variables and converts numbers', () => {
    const config = loadConfig(TestConfig, { PORT: '4001' });
    expect(config.PORT).toBe(4001);
    expect(config.KAFKA_BROKERS).toBe('127.0.0.1:9092');
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
  });

  it('takes an empty variable as the default, except for a setting an empty value switches off', () => {
    const config = loadConfig(TestConfig, { SIGNING_SECRET: '', RELAY_URL: '' });
    expect(config.SIGNING_SECRET).toBe('dev-secret');
    expect(config.RELAY_URL).toBe('');
    expect(loadConfig(TestConfig, {}).RELAY_URL).toBe('smtp://127.0.0.1:2526');
  });

  it('names each invalid variable', () => {
    expect(() => loadConfig(TestConfig, { PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(/PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/);
  });

  it('refuses to start in production with a development secret', () => {
    expect(() => loadConfig(TestConfig, { NODE_ENV: 'production' })).toThrow(/SIGNING_SECRET/);
    expect(loadConfig(TestConfig, { NODE_ENV: 'production', SIGNING_SECRET: 'real' }).isProduction).toBe(true);
  });

  it('serves /metrics on the service port in development and on an internal one in production (METRICS_PORT)', () => {
    expect(loadConfig(TestConfig, {}).metricsPort).toBeNull();
    expect(loadConfig(TestConfig, { NODE_ENV: 'production', SIGNING_SECRET: 'real' }).metricsPort).toBe(3999 + 1000);
    expect(loadConfig(TestConfig, { NODE_ENV: 'production', SIGNING_SECRET: 'real', PORT: '0' }).metricsPort).toBe(0);
    expect(loadConfig(TestConfig, { NODE_ENV: 'production', SIGNING_SECRET: 'real', METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(loadConfig(TestConfig, { METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(loadConfig(TestConfig, { METRICS_PORT: '3999' }).metricsPort).toBeNull();
    expect(() => loadConfig(TestConfig, { METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT/);
  });
});
