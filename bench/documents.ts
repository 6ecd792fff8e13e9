/** Documents the benchmarks share, generated from a fixed seed so every run measures the same text. */

/** Code-like text: indented short lines, some hard tabs, and about one line in seven long enough to wrap at 80. */
export function codeLikeDocument(lineCount: number): string {
  let seed = 42
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return Math.floor((seed / 2147483648) * n)
  }
  const words = ['const', 'value', 'return', 'function', 'item', 'index', 'result', 'if', 'else', 'for', '=', '{', '}', '(x)', 'await']
  const lines: string[] = []
  for (let i = 0; i < lineCount; i++) {
    const indent = next(5) === 0 ? '\t' : '  '.repeat(next(4))
    const wordCount = next(7) === 0 ? 14 + next(20) : 2 + next(8)
    const parts: string[] = []
    for (let w = 0; w < wordCount; w++) parts.push(words[next(words.length)]!)
    lines.push(indent + parts.join(' '))
  }
  return lines.join('\n')
}
