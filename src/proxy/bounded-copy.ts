// A copy of the first bytes of a streamed body, for checking, that never grows past its limit: the body itself
// flows on untouched, whatever its size.
export class BoundedCopy {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Set once the body went past the limit: the copy is then dropped, and the body is reported as too large. */
  over = false;
  /** Bytes that flowed through, kept or not. */
  total = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.over) return;
    if (this.size + chunk.length > this.limit) {
      this.over = true;
      this.chunks = [];
      this.size = 0;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  /** Bytes kept. */
  get kept(): number {
    return this.size;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}
