import { StringDecoder } from 'node:string_decoder';
import { none } from 'stream-chain/defs.js';
import { Assembler } from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/parser.js';
import { jsonVerifier } from 'stream-json/utils/verifier.js';
import type { ParseBundleResult } from '../domain/bundle.js';
import { BundleValidator, notABundleObject } from './parse-bundle.js';

/**
 * Reads an ingest bundle from a byte stream (a file, stdin) without holding
 * its text or its parsed JSON: the text is tokenized as it arrives
 * (stream-json), each entry of `shipments` and `events` is assembled alone
 * and handed to the BundleValidator, and only normalized entries are kept.
 * A 57 MB bundle of 100,000 events was read whole, parsed whole and then
 * normalized, about 600 MB at its peak before a row was written.
 *
 * The text also runs through stream-json's verifier, which knows where it
 * is: broken JSON is reported with its line and column (JSON.parse said
 * "position 47").
 */

/** Broken JSON, with where it broke: 1-based line and column. */
export class BundleJsonError extends Error {
  override name = 'BundleJsonError';
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

export interface ReadBundleOptions {
  /** Called with the number of entries validated so far, every `progressEvery` entries. */
  onProgress?: (entries: number) => void;
  /** Default 1000. */
  progressEvery?: number;
}

type EntryList = 'shipments' | 'events';

/** Validates the bundle as it streams; throws BundleJsonError on broken JSON (and nothing is then written). */
export async function readBundle(source: AsyncIterable<Buffer | string>, options: ReadBundleOptions = {}): Promise<ParseBundleResult> {
  const reader = new BundleTokenReader(options);
  const verify = jsonVerifier();
  // Only packed tokens (whole keys, strings, numbers): what the assembler reads.
  const parse = jsonParser({ streamValues: false });
  const decoder = new StringDecoder('utf8');
  let first = true;

  const feed = (text: string) => {
    if (first && text.length > 0) {
      // Editors on some platforms save a byte order mark; it is not JSON.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    try {
      verify(text);
    } catch (err) {
      throw jsonError(err);
    }
    reader.tokens(parse(text));
  };
  for await (const chunk of source) feed(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  feed(decoder.end());
  try {
    flush(verify);
  } catch (err) {
    throw jsonError(err);
  }
  reader.tokens(flush(parse));
  return reader.finish();
}

/** stream-chain's end of input: a flushable stage is called once more with `none`. */
function flush(stage: (text: string) => unknown): unknown {
  return (stage as unknown as (value: typeof none) => unknown)(none);
}

/** The verifier says `ERROR at 47 (3, 9): Verifier cannot parse input: expected ':'`; keep the reason. */
function jsonError(err: unknown): BundleJsonError {
  const e = err as { message?: string; line?: number; pos?: number };
  const reason = (e.message ?? String(err))
    .replace(/^ERROR at \d+ \(\d+, \d+\): /, '')
    .replace(/^Verifier cannot parse input: /, '')
    .replace(/^Verifier has expected /, 'unexpected end of input: expected ');
  return new BundleJsonError(reason, e.line ?? 0, e.pos ?? 0);
}

/** Turns the token stream of a bundle into BundleValidator calls. */
class BundleTokenReader {
  readonly #validator = new BundleValidator();
  readonly #options: ReadBundleOptions;
  /** root: before the bundle object; members: inside it; value: assembling a member or entry; entries: inside shipments/events. */
  #state: 'root' | 'members' | 'value' | 'entries' | 'done' | 'not-an-object' = 'root';
  #key = '';
  #list: EntryList | undefined;
  #assembler: Assembler | undefined;
  readonly #seenKeys = new Set<string>();
  #repeatedKey: string | undefined;
  #nextProgress: number;

  constructor(options: ReadBundleOptions) {
    this.#options = options;
    this.#nextProgress = options.progressEvery ?? 1000;
  }

  tokens(result: unknown): void {
    if (result === none) return;
    // The parser returns one token or several (stream-chain's many()).
    const list = (result as { values?: Token[] }).values ?? [result as Token];
    for (const token of list) this.#token(token);
  }

  #token(token: Token): void {
    switch (this.#state) {
      case 'root':
        this.#state = token.name === 'startObject' ? 'members' : 'not-an-object';
        return;
      case 'members':
        if (token.name === 'endObject') {
          this.#state = 'done';
        } else if (token.name === 'keyValue') {
          this.#key = token.value;
          if (this.#seenKeys.has(token.value)) this.#repeatedKey ??= token.value;
          this.#seenKeys.add(token.value);
        } else if (token.name === 'startArray' && (this.#key === 'shipments' || this.#key === 'events')) {
          this.#validator.member(this.#key, []);
          this.#list = this.#key;
          this.#state = 'entries';
        } else {
          this.#list = undefined;
          this.#assemble(token);
        }
        return;
      case 'entries':
        // An entry being assembled may hold arrays of its own.
        if (token.name === 'endArray' && !this.#assembler) this.#state = 'members';
        else this.#assemble(token);
        return;
      case 'value':
        this.#assemble(token);
        return;
      default:
        // After the bundle object, or a bundle that is no object: the verifier checks the syntax.
        return;
    }
  }

  /** Feeds a token of the value being assembled; on its last token, hands the value over. */
  #assemble(token: Token): void {
    const assembler = (this.#assembler ??= new Assembler());
    assembler.consume(token);
    if (!assembler.done) {
      if (this.#state !== 'entries') this.#state = 'value';
      return;
    }
    this.#assembler = undefined;
    const value = assembler.current;
    if (this.#list === undefined) {
      this.#validator.member(this.#key, value);
      this.#state = 'members';
      return;
    }
    if (this.#list === 'shipments') this.#validator.addShipment(value);
    else this.#validator.addEvent(value);
    this.#state = 'entries';
    if (this.#options.onProgress && this.#validator.entries >= this.#nextProgress) {
      this.#options.onProgress(this.#validator.entries);
      this.#nextProgress += this.#options.progressEvery ?? 1000;
    }
  }

  finish(): ParseBundleResult {
    if (this.#state === 'not-an-object') return notABundleObject();
    if (this.#repeatedKey !== undefined) {
      // JSON.parse would silently keep the last one; which one is meant cannot be told.
      return { ok: false, issues: [{ path: this.#repeatedKey, message: 'is given more than once in the bundle object' }] };
    }
    return this.#validator.finish();
  }
}
