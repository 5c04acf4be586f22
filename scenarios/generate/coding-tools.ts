import type { Faker } from "@faker-js/faker";
import type { ContentPart } from "../../harness/contract/types.ts";
import { capitalise, TextCorpus } from "./corpus.ts";

/** One call the simulated coding agent makes, before it gets an id. */
export interface PlannedCall {
  name: string;
  arguments: string;
  result: string | ContentPart[];
}

export const CODING_TOOL_NAMES = ["read_file", "terminal", "search_files", "patch", "browser_screenshot"] as const;

/**
 * A make-believe repository for one session: files, commands and search terms the agent works
 * with, and the tool outputs it gets back, cut to a requested size.
 */
export class CodingWorkspace {
  readonly files: string[];
  readonly commands: string[];
  readonly #terms: string[];
  readonly #corpus: TextCorpus;
  readonly #hits: TextCorpus;
  /** Word pools drawn once, so each turn costs a few index draws instead of faker templates. */
  readonly words: { nouns: string[]; verbs: string[]; adjectives: string[]; phrases: string[] };
  readonly #history: PlannedCall[] = [];

  constructor(private readonly faker: Faker) {
    const dirs = ["src", "src/lib", "src/api", "test", "scripts"];
    const files = new Set<string>();
    while (files.size < 24) {
      files.add(`${faker.helpers.arrayElement(dirs)}/${faker.word.noun().toLowerCase().replace(/\W/g, "")}-${faker.word.verb().toLowerCase().replace(/\W/g, "")}.ts`);
    }
    this.files = [...files].sort();
    this.commands = ["npm test", "npm run build", "npx tsc --noEmit", "git status --short", "git diff --stat", "npm run lint"];
    this.#terms = faker.helpers.multiple(() => faker.word.noun().toLowerCase().replace(/\W/g, ""), { count: 20 });
    this.#corpus = new TextCorpus(faker);
    this.#hits = new TextCorpus(faker, 300, () => `${faker.helpers.arrayElement(this.files)}:${faker.number.int({ min: 1, max: 400 })}: ${this.#corpus.slice(60).replace(/\n/g, " ")}`);
    this.words = {
      nouns: faker.helpers.multiple(() => faker.word.noun(), { count: 40 }),
      verbs: faker.helpers.multiple(() => faker.word.verb(), { count: 24 }),
      adjectives: faker.helpers.multiple(() => faker.word.adjective(), { count: 24 }),
      phrases: faker.helpers.multiple(() => `${faker.hacker.phrase()} ${faker.lorem.sentence()}`, { count: 48 }),
    };
  }

  /** A seeded pick from one of the word pools. */
  pick(pool: keyof CodingWorkspace["words"]): string {
    return this.faker.helpers.arrayElement(this.words[pool]);
  }

  /** A fresh call of a random coding tool; `repeatChance` re-issues an earlier call verbatim. */
  call(outputBytes: number, options: { repeatChance?: number; screenshotChance?: number } = {}): PlannedCall {
    const f = this.faker;
    if (this.#history.length > 0 && f.number.float() < (options.repeatChance ?? 0)) {
      const earlier = f.helpers.arrayElement(this.#history);
      return { ...earlier, result: this.#refreshResult(earlier, outputBytes) };
    }
    let call: PlannedCall;
    if (f.number.float() < (options.screenshotChance ?? 0)) call = this.screenshot();
    else {
      switch (f.number.int(3)) {
        case 0: call = this.readFile(f.helpers.arrayElement(this.files), outputBytes); break;
        case 1: call = this.terminal(f.helpers.arrayElement(this.commands), outputBytes); break;
        case 2: call = this.search(f.helpers.arrayElement(this.#terms), outputBytes); break;
        default: call = this.patch(f.helpers.arrayElement(this.files));
      }
    }
    this.#history.push(call);
    return call;
  }

  readFile(path: string, outputBytes: number): PlannedCall {
    const header = `// ${path}\n`;
    return { name: "read_file", arguments: JSON.stringify({ path }), result: header + this.#corpus.slice(Math.max(0, outputBytes - header.length)) };
  }

  terminal(command: string, outputBytes: number): PlannedCall {
    const f = this.faker;
    const exit = f.number.float() < 0.8 ? 0 : 1;
    const header = `$ ${command}\n`;
    const footer = `\n[exit ${exit}, ${f.number.int({ min: 20, max: 9000 })} ms]`;
    return {
      name: "terminal",
      arguments: JSON.stringify({ command }),
      result: header + this.#corpus.slice(Math.max(0, outputBytes - header.length - footer.length)) + footer,
    };
  }

  search(pattern: string, outputBytes: number): PlannedCall {
    return { name: "search_files", arguments: JSON.stringify({ pattern, path: "." }), result: this.#hits.slice(Math.max(outputBytes, 1)) };
  }

  patch(path: string): PlannedCall {
    const f = this.faker;
    const name = `${this.pick("verbs").replace(/\W/g, "")}${capitalise(this.pick("nouns").replace(/\W/g, ""))}`;
    const oldString = `const ${name} = ${f.number.int(99)};`;
    const newString = `const ${name} = ${f.number.int({ min: 100, max: 999 })};`;
    return {
      name: "patch",
      arguments: JSON.stringify({ path, old_string: oldString, new_string: newString }),
      result: JSON.stringify({ success: true, path, replacements: 1 }),
    };
  }

  /** A multimodal tool result: a caption and a small inline PNG. */
  screenshot(): PlannedCall {
    const url = `http://localhost:${this.faker.internet.port()}/${this.faker.word.noun()}`;
    return {
      name: "browser_screenshot",
      arguments: JSON.stringify({ url }),
      result: [
        { type: "text", text: `Screenshot of ${url}` },
        { type: "image_url", image_url: { url: fakePngDataUrl(this.faker, 1200) } },
      ],
    };
  }

  #refreshResult(call: PlannedCall, outputBytes: number): string | ContentPart[] {
    if (call.name === "read_file") return this.readFile((JSON.parse(call.arguments) as { path: string }).path, outputBytes).result;
    if (call.name === "terminal") return this.terminal((JSON.parse(call.arguments) as { command: string }).command, outputBytes).result;
    return call.result;
  }
}

/** A data URL shaped like a PNG (real signature, seeded body); the host never decodes it. */
export function fakePngDataUrl(faker: Faker, base64Chars: number): string {
  const body = faker.string.alphanumeric(Math.max(0, base64Chars - 12));
  return `data:image/png;base64,iVBORw0KGgo${body}=`;
}
