// The parser ships no types; testing.ts says what it reads of the output (`PrometheusFamily`).
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown;
}
