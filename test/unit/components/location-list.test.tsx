import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { LocationList } from '../../../renderer/components/transcript/LocationList'

const locations = Array.from({ length: 60 }, (_, i) => ({ path: `/project/file-${i}.ts` }))

describe('a tool call’s locations', () => {
  it('say how many the agent sent past Bosun’s list bound, as the content list does', () => {
    const html = renderToStaticMarkup(<LocationList locations={locations} notKept={2_345} />)
    expect(html).toContain('Show all 60 locations')
    expect(html).toContain('2,345 more locations were not kept: Bosun keeps 10,000.')
  })

  it('a list kept whole says nothing of the kind', () => {
    expect(renderToStaticMarkup(<LocationList locations={locations} />)).not.toContain('not kept')
  })
})
