import { describe, expect, it } from 'vitest';
import { parseKeyValueList, resolveTelemetryConfig } from './config.js';
import { TelemetryError } from './errors.js';

describe('resolveTelemetryConfig', () => {
  it('is off without an endpoint', () => {
    const config = resolveTelemetryConfig({});
    expect(config.traces).toBeUndefined();
    expect(config.metrics).toBeUndefined();
    expect(config.serviceName).toBe('hankweave');
    expect(config.captureContent).toBe(false);
  });

  it('appends the signal path to the general endpoint, and takes a signal endpoint as is', () => {
    const config = resolveTelemetryConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/api/otel',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-team=ml',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=agents',
      OTEL_SERVICE_NAME: 'fleet-a',
      HANKWEAVE_OTEL_CAPTURE_CONTENT: '1',
    });
    expect(config.traces?.url).toBe('https://traces.example/api/otel');
    expect(config.traces?.source).toBe('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
    expect(config.traces?.headers).toEqual({ authorization: 'Bearer abc', 'x-team': 'agents' });
    expect(config.metrics?.url).toBe('http://collector:4318/v1/metrics');
    expect(config.metrics?.headers).toEqual({ authorization: 'Bearer abc', 'x-team': 'ml' });
    expect(config.serviceName).toBe('fleet-a');
    expect(config.captureContent).toBe(true);
  });

  it('is turned off by OTEL_SDK_DISABLED and by an exporter set to none', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(
      resolveTelemetryConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).traces,
    ).toBeUndefined();
    const config = resolveTelemetryConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' });
    expect(config.traces).toBeUndefined();
    expect(config.metrics).toBeDefined();
  });

  it('refuses an endpoint that is not an http(s) URL, naming the variable', () => {
    expect(() => resolveTelemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4317' })).toThrow(
      TelemetryError,
    );
    expect(() =>
      resolveTelemetryConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://x:4317' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_TRACES_ENDPOINT/);
  });

  it('encodes in protobuf by default, in JSON when asked, per signal', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    const plain = resolveTelemetryConfig(endpoint);
    expect(plain.traces?.protocol).toBe('http/protobuf');
    expect(plain.metrics?.protocol).toBe('http/protobuf');
    const mixed = resolveTelemetryConfig({
      ...endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/protobuf',
    });
    expect(mixed.traces?.protocol).toBe('http/json');
    expect(mixed.metrics?.protocol).toBe('http/protobuf');
  });

  it('refuses what it would otherwise ignore: grpc, an unknown protocol, another exporter', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    const refused = (env: Record<string, string>) => {
      try {
        resolveTelemetryConfig({ ...endpoint, ...env });
      } catch (error) {
        expect(TelemetryError.is(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };
    expect(refused({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatch(
      /^OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported.*http\/protobuf/,
    );
    expect(refused({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/xml' })).toMatch(
      /^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http\/protobuf or http\/json/,
    );
    expect(refused({ OTEL_TRACES_EXPORTER: 'console' })).toMatch(
      /^OTEL_TRACES_EXPORTER=console: only otlp and none/,
    );
    expect(refused({ OTEL_METRICS_EXPORTER: 'otlp,prometheus' })).toMatch(/--metrics-port/);
    // The listed forms the spec allows still work.
    expect(
      resolveTelemetryConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp' }).traces,
    ).toBeDefined();
    expect(
      resolveTelemetryConfig({ ...endpoint, OTEL_METRICS_EXPORTER: 'none' }).metrics,
    ).toBeUndefined();
  });

  it('parses key=value lists as the spec writes them', () => {
    expect(parseKeyValueList('a=1, b = two%2C ,=x,c')).toEqual({ a: '1', b: 'two,' });
  });
});
