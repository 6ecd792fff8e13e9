import { describe, expect, it } from 'vitest'
import { TextBuffer } from '../../core/buffer/text-buffer.ts'
import { BufferInput } from '../../core/language/buffer-input.ts'
import { fuzzSeeds, Random } from '../helpers/random.ts'

/** Reads the whole input chunk by chunk, as the parser does. */
function readByChunks(input: BufferInput): string[] {
  const chunks: string[] = []
  for (let offset = 0; offset < input.length; ) {
    const chunk = input.chunk(offset)
    chunks.push(chunk)
    offset += chunk.length
  }
  return chunks
}

describe('BufferInput', () => {
  it('serves a block of text per chunk, line endings included', () => {
    const input = new BufferInput(new TextBuffer({ text: 'ab\r\ncd\ref\n\ng' }), 4)
    expect(input.length).toBe(12)
    expect(readByChunks(input)).toEqual(['ab\r\n', 'cd\re', 'f\n\ng'])
    expect(readByChunks(new BufferInput(new TextBuffer({ text: 'ab\r\ncd\ref\n\ng' })))).toEqual(['ab\r\ncd\ref\n\ng'])
  })

  it('serves chunks from any offset, including the middle of a CRLF', () => {
    const input = new BufferInput(new TextBuffer({ text: 'ab\r\ncd\ref' }), 4)
    expect(input.chunk(3)).toBe('\ncd\r')
    expect(input.chunk(5)).toBe('d\r')
    expect(input.chunk(1)).toBe('b\r\nc')
    expect(input.chunk(7)).toBe('ef')
    expect(input.chunk(9)).toBe('')
    expect(input.chunk(-1)).toBe('')
  })

  it('reads ranges', () => {
    const input = new BufferInput(new TextBuffer({ text: 'one\ntwo\nthree' }))
    expect(input.read(2, 9)).toBe('e\ntwo\nt')
    expect(input.read(0, 0)).toBe('')
  })

  it('is empty for an empty buffer', () => {
    const input = new BufferInput(new TextBuffer())
    expect(input.length).toBe(0)
    expect(readByChunks(input)).toEqual([])
  })

  it('agrees with the text at random offsets', () => {
    for (const seed of fuzzSeeds(5)) {
      const random = new Random(seed)
      const text = random.string(200, ['a', 'b', '\n', '\r\n', '\r', ' ', 'é', '😀'])
      const input = new BufferInput(new TextBuffer({ text }), 1 + random.int(16))
      expect(readByChunks(input).join(''), `seed ${seed}`).toBe(text)
      // An empty text (the random string can be one) has no offset to read from.
      for (let i = 0; i < 50 && text.length > 0; i++) {
        const offset = random.int(text.length)
        const chunk = input.chunk(offset)
        expect(chunk.length, `seed ${seed} offset ${offset}`).toBeGreaterThan(0)
        expect(text.slice(offset, offset + chunk.length), `seed ${seed} offset ${offset}`).toBe(chunk)
      }
    }
  })
})
