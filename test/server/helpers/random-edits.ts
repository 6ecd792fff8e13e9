import * as Y from 'yjs'
import type { Random } from '../../helpers/random.ts'

/** One random edit of `doc`, of any kind Yjs can encode (text, formats, embeds, maps, arrays, XML, binary, subdocuments, deletions). */
export function edit(doc: Y.Doc, random: Random): void {
  const text = doc.getText('text')
  const map = doc.getMap('map')
  const array = doc.getArray<unknown>('array')
  const xml = doc.getXmlFragment('xml')
  switch (random.int(11)) {
    case 0:
      text.insert(random.int(text.length + 1), random.pick(['a', 'bc', 'héllo ', '\n', '😀']))
      break
    case 1:
      if (text.length > 0) text.delete(random.int(text.length), 1 + random.int(Math.min(3, text.length)))
      else text.insert(0, 'x')
      break
    case 2:
      text.insert(random.int(text.length + 1), 'bold', { bold: true, size: random.int(5) })
      break
    case 3:
      text.insertEmbed(random.int(text.length + 1), { image: `i${random.int(9)}.png` })
      break
    case 4:
      map.set(`k${random.int(5)}`, random.pick<unknown>([1, 'two', null, true, { nested: [1, { a: 'b' }] }, 2.5, -7, 2n ** 40n]))
      break
    case 5:
      map.set(`b${random.int(3)}`, new Uint8Array([random.int(256), random.int(256)]))
      break
    case 6: {
      const inner = new Y.Text()
      map.set(`t${random.int(3)}`, inner)
      inner.insert(0, 'inner')
      break
    }
    case 7:
      array.insert(random.int(array.length + 1), [random.int(100), 'x', [1, 2], { o: 1 }])
      break
    case 8: {
      const element = new Y.XmlElement(random.pick(['p', 'h1']))
      // A hook (a map type) may sit in a fragment, though its typings take only elements and texts.
      xml.insert(random.int(xml.length + 1), [element, new Y.XmlText('t'), new Y.XmlHook('hook') as unknown as Y.XmlElement])
      element.setAttribute('class', 'c')
      break
    }
    case 9:
      map.set(`d${random.int(2)}`, new Y.Doc())
      break
    case 10:
      if (array.length > 0) array.delete(random.int(array.length))
      else map.delete(`k${random.int(5)}`)
      break
  }
}
