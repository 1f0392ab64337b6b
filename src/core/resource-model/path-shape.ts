// Path templates as shapes: `/users/{userId}/posts` and `/users/{id}/posts` are one place (OpenAPI 3.1 section
// 4.8.8: templated paths that differ only in their parameter names are the same path), so the model keys on shapes.

/**
 * Longer paths are left out of the model (their operations are on no resource, their parameters unbound): each
 * parameter looks at the path up to it, so a path of n segments costs n² (a hostile spec's 16,000-segment path took
 * 30 s). Real APIs stay far below: GitHub's deepest path has 11 segments.
 */
export const maxModelledSegments = 64;

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
