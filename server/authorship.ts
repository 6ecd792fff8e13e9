import type * as Y from 'yjs'
import { visibleClientRuns } from '../core/index.ts'
import type { Author } from './authors-map.ts'
import { publicAuthor } from './authors-map.ts'

export interface AuthorshipRun {
  /** UTF-16 offsets into the current text. */
  from: number
  to: number
  author: { id: string; name: string; attested: boolean }
}

/**
 * Who wrote each character of `text`: runs of adjacent characters with one author, each
 * character's author being who `authorOf` says wrote under the client id that inserted it (else
 * the client id itself, unattested). One walk over the text's items (the engine's `visibleClientRuns`,
 * which keeps Yjs's internals in one module), one lookup per client id.
 */
export function authorshipRuns(text: Y.Text, authorOf: (client: number) => Author | undefined): AuthorshipRun[] {
  const byClient = new Map<number, Author>()
  const runs: AuthorshipRun[] = []
  let index = 0
  for (const { client, length } of visibleClientRuns(text)) {
    let author = byClient.get(client)
    if (author === undefined) byClient.set(client, (author = authorOf(client) ?? { id: `client:${client}`, name: `client ${client}`, attested: false }))
    const last = runs[runs.length - 1]
    if (last !== undefined && last.to === index && last.author.id === author.id && last.author.attested === author.attested) last.to += length
    else runs.push({ from: index, to: index + length, author: publicAuthor(author) })
    index += length
  }
  return runs
}
