import { describe, expect, it } from 'vitest'
import { createRequire } from 'node:module'
import { binaryFrame } from '../../server/connection.ts'

/** ws's own framing, which its typings do not declare. */
const { Sender } = createRequire(import.meta.url)('ws') as {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; rsv1: boolean; readOnly: boolean }): Buffer[] }
}

/** A relay is framed once for all its recipients (binaryFrame) and written under ws: the bytes must be the frame ws would write. */

describe('binaryFrame', () => {
  it('is the frame ws makes for a binary message, at every length encoding', () => {
    for (const length of [0, 1, 125, 126, 127, 65_535, 65_536, 70_000]) {
      const payload = Uint8Array.from({ length }, (_, i) => (i * 31) & 0xff)
      const ws = Buffer.concat(Sender.frame(Buffer.from(payload), { fin: true, opcode: 2, mask: false, rsv1: false, readOnly: false }))
      expect(Buffer.from(binaryFrame(payload)).equals(ws), `length ${length}`).toBe(true)
    }
  })
})
