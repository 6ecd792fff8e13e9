/**
 * Re-parse after one keystroke in a 20,000-line JavaScript file, against a full parse of the same text.
 * Run: npx tsx bench/language-reparse.bench.ts
 */
import { TextBuffer } from '../core/buffer/text-buffer.ts'
import { BufferInput } from '../core/language/buffer-input.ts'
import { createLanguageMode } from '../core/language/language-mode.ts'
import { languageSpec } from '../core/language/languages/index.ts'
import { javascriptSource } from './documents.ts'
import { median } from './measure.ts'

const LINES = 20_000
const ROUNDS = 40

const buffer = new TextBuffer({ text: javascriptSource({ lines: LINES }) })
const mode = createLanguageMode('javascript', buffer)
mode.getSyntaxTree()

// Full parse: the mode's own parser over the same buffer input, without reusable fragments.
const parser = languageSpec('javascript')!.parser
const full: number[] = []
for (let round = 0; round < Math.max(6, ROUNDS / 4); round++) {
  const start = performance.now()
  parser.parse(new BufferInput(buffer))
  full.push(performance.now() - start)
}

// One keystroke in the middle of the file: a digit typed at the end of `let sum = 0`, then the query that
// re-parses. Only the re-parse is timed; the edit itself is the buffer's business.
let middle = Math.floor(LINES / 2)
while (buffer.lineForRow(middle) !== '  let sum = 0') middle++
const incremental: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  buffer.insert([middle, buffer.lineLengthForRow(middle)], String(round % 10))
  const start = performance.now()
  mode.getSyntaxTree()
  incremental.push(performance.now() - start)
}

const fullMs = median(full.slice(2))
const incrementalMs = median(incremental.slice(4))
const ratio = fullMs / incrementalMs
console.log(
  `language: reparse after one keystroke in 20k-line JS: ${Math.round(ratio)}x faster than a full parse ` +
    `(${incrementalMs.toFixed(2)} ms vs ${fullMs.toFixed(0)} ms)`,
)
mode.destroy()
buffer.destroy()
