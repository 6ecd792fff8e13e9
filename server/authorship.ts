import type * as Y from 'yjs'
import type { Author } from './authors-map.ts'
import { authorOfClient, publicAuthor } from './authors-map.ts'

export interface AuthorshipRun {
  /** UTF-16 offsets into the current text. */
  from: number
  to: number
  author: { id: string; name: string; attested: boolean }
}

/**
 * Who wrote each character of `text`: runs of adjacent characters with one author, each
 * character's author being the binding of the client id that inserted it. One walk over the
 * text's items, with one map lookup per client id.
 */
export function authorshipRuns(text: Y.Text, authors: Y.Map<Author>): AuthorshipRun[] {
  const byClient = new Map<number, Author>()
  const runs: AuthorshipRun[] = []
  let index = 0
  for (let item = text._start; item !== null; item = item.right) {
    if (item.deleted || !item.countable) continue
    const client = item.id.client
    let author = byClient.get(client)
    if (author === undefined) byClient.set(client, (author = authorOfClient(authors, client)))
    const last = runs[runs.length - 1]
    if (last !== undefined && last.to === index && last.author.id === author.id && last.author.attested === author.attested) last.to += item.length
    else runs.push({ from: index, to: index + item.length, author: publicAuthor(author) })
    index += item.length
  }
  return runs
}
