/**
 * Types for the parts of `edifact` (node-edifact, plain JavaScript) that src/ingest/edi-iftsta.ts uses,
 * as its README documents them: a streaming parser emitting segments, elements and components.
 */
declare module 'edifact/parser.js' {
  import { EventEmitter } from 'node:events';
  class Parser extends EventEmitter {
    constructor(validator?: unknown, config?: unknown);
    /** Sets the character set (UNOA, UNOB, UNOC, UNOY). */
    encoding(level: string): void;
    write(chunk: string): void;
    /** Throws when the text ends inside a segment. */
    end(): void;
    on(event: 'opensegment', listener: (name: string) => void): this;
    on(event: 'element' | 'closesegment', listener: () => void): this;
    on(event: 'component', listener: (value: string) => void): this;
  }
  export = Parser;
}
