import type { Faker } from "@faker-js/faker";

/**
 * A block of code-like and log-like text made once per session, from which tool outputs of any
 * size are cut by offset: sizes stay exact and cost one slice, not one faker call per word.
 */
export class TextCorpus {
  readonly #text: string;
  readonly #doubled: string;
  readonly #phrases: string[];

  constructor(
    private readonly faker: Faker,
    lines = 600,
    makeLine?: (i: number) => string,
  ) {
    this.#phrases = Array.from({ length: 32 }, () => faker.hacker.phrase());
    const out: string[] = [];
    for (let i = 0; i < lines; i++) out.push(makeLine ? makeLine(i) : this.#line(i));
    this.#text = `${out.join("\n")}\n`;
    this.#doubled = this.#text + this.#text;
  }

  get length(): number {
    return this.#text.length;
  }

  /** Exactly `size` characters starting at a seeded offset. */
  slice(size: number): string {
    if (size <= 0) return "";
    const offset = this.faker.number.int({ min: 0, max: this.#text.length - 1 });
    if (size <= this.#text.length) return this.#doubled.slice(offset, offset + size);
    const rotated = this.#doubled.slice(offset, offset + this.#text.length);
    return rotated.repeat(Math.ceil(size / rotated.length)).slice(0, size);
  }

  #line(i: number): string {
    const f = this.faker;
    switch (i % 6) {
      case 0:
        return `export function ${f.hacker.verb().replace(/\W/g, "")}${capitalise(f.word.noun())}(${f.word.noun()}: ${capitalise(f.word.noun())}) {`;
      case 1:
        return `  const ${f.word.noun()} = await ${f.word.verb()}(${f.word.noun()}, { retries: ${f.number.int(9)} });`;
      case 2:
        return `  // ${f.helpers.arrayElement(this.#phrases)}`;
      case 3:
        return `[${f.date.recent().toISOString()}] ${f.helpers.arrayElement(["INFO", "WARN", "DEBUG", "ERROR"])} ${f.word.noun().replace(/\W/g, "")}.ts:${f.number.int({ min: 1, max: 900 })} ${f.helpers.arrayElement(this.#phrases)}`;
      case 4:
        return `  if (!${f.word.noun()}) throw new Error("${f.word.adjective()} ${f.word.noun()}");`;
      default:
        return "}";
    }
  }
}

export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
