// Decoding of OTLP's protobuf requests, for the loopback receiver of the tests (testing.ts): the
// SDK encodes them by hand and ships no decoder, so this is protobufjs with the messages of
// opentelemetry-proto (collector/trace/v1, collector/metrics/v1, trace/v1, metrics/v1,
// common/v1, resource/v1) that a receiver reads, field numbers as the specification has them.
// Fields left out are skipped by the decoder, as protobuf does for unknown fields.
import protobuf from 'protobufjs';

const SCHEMA = `
syntax = "proto3";
package otlp;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
}
message Resource { repeated KeyValue attributes = 1; }

message Status { string message = 2; int32 code = 3; }
message Event {
  fixed64 time_unix_nano = 1;
  string name = 2;
  repeated KeyValue attributes = 3;
}
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  repeated Event events = 11;
  Status status = 15;
}
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }

message NumberDataPoint {
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  oneof value { double as_double = 4; sfixed64 as_int = 6; }
  repeated KeyValue attributes = 7;
}
message HistogramDataPoint {
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  fixed64 count = 4;
  optional double sum = 5;
  repeated fixed64 bucket_counts = 6;
  repeated double explicit_bounds = 7;
  repeated KeyValue attributes = 9;
  optional double min = 11;
  optional double max = 12;
}
message Gauge { repeated NumberDataPoint data_points = 1; }
message Sum {
  repeated NumberDataPoint data_points = 1;
  int32 aggregation_temporality = 2;
  bool is_monotonic = 3;
}
message Histogram {
  repeated HistogramDataPoint data_points = 1;
  int32 aggregation_temporality = 2;
}
message Metric {
  string name = 1;
  string description = 2;
  string unit = 3;
  oneof data { Gauge gauge = 5; Sum sum = 7; Histogram histogram = 9; }
}
message ScopeMetrics { InstrumentationScope scope = 1; repeated Metric metrics = 2; }
message ResourceMetrics { Resource resource = 1; repeated ScopeMetrics scope_metrics = 2; }
message ExportMetricsServiceRequest { repeated ResourceMetrics resource_metrics = 1; }
`;

const root = protobuf.parse(SCHEMA, { keepCase: false }).root;
const traceRequest = root.lookupType('otlp.ExportTraceServiceRequest');
const metricsRequest = root.lookupType('otlp.ExportMetricsServiceRequest');

/** The ids are bytes in protobuf and lowercase hex in OTLP/JSON: hex here, as JSON has them. */
function hexIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexIds);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      inner instanceof Uint8Array &&
      (key === 'traceId' || key === 'spanId' || key === 'parentSpanId')
        ? Buffer.from(inner).toString('hex')
        : hexIds(inner);
  }
  return out;
}

/**
 * A protobuf `ExportTraceServiceRequest` or `ExportMetricsServiceRequest` as the object OTLP/JSON
 * would carry (camelCase names, 64-bit integers as decimal strings, ids in hex), so one reader
 * serves both encodings.
 */
export function decodeOtlpProtobuf(kind: 'traces' | 'metrics', body: Uint8Array): unknown {
  const type = kind === 'traces' ? traceRequest : metricsRequest;
  const message = type.decode(body);
  return hexIds(type.toObject(message, { longs: String, enums: Number, bytes: Uint8Array }));
}
