// Path templates as shapes: `/users/{userId}/posts` and `/users/{id}/posts` are one place (OpenAPI 3.1 section
// 4.8.8: templated paths that differ only in their parameter names are the same path), so the model keys on shapes.

export interface Segment {
  text: string;
  /** The parameter's name when the segment is exactly one `{name}`. */
  parameter: string | undefined;
}

export function segmentsOf(template: string): Segment[] {
  return template
    .split('/')
    .filter((text) => text !== '')
    .map((text) => ({ text, parameter: /^\{([^{}]+)\}$/.exec(text)?.[1] }));
}

/** The template with every parameter as `{}`: equal for equal places. */
export function shapeOf(segments: readonly Segment[]): string {
  return `/${segments.map((segment) => segment.text.replace(/\{[^{}]*\}/g, '{}')).join('/')}`;
}

export function templateOf(segments: readonly Segment[]): string {
  return `/${segments.map((segment) => segment.text).join('/')}`;
}
