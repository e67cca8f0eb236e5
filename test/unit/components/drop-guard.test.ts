/** Files dropped where nothing takes them are refused by the window, so the browser does not open them in Bosun's place. */
import { describe, expect, it } from 'vitest'
import { guardFileDrops } from '../../../renderer/screens/drop-guard'

type Listener = (e: DragEvent) => void
function fakeWindow() {
  const listeners = new Map<string, Listener>()
  const target = {
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    removeEventListener: (type: string) => listeners.delete(type),
  } as unknown as Pick<Window, 'addEventListener' | 'removeEventListener'>
  return { target, listeners }
}
function dragEvent(types: string[], alreadyTaken = false) {
  const event = { defaultPrevented: alreadyTaken, dataTransfer: { types, dropEffect: 'copy' }, preventDefault: () => (event.defaultPrevented = true) }
  return event
}

describe('guardFileDrops', () => {
  it('refuses a file dragged over or dropped where nothing takes it', () => {
    const { target, listeners } = fakeWindow()
    guardFileDrops(target)
    const over = dragEvent(['Files'])
    listeners.get('dragover')!(over as unknown as DragEvent)
    expect(over.defaultPrevented).toBe(true)
    expect(over.dataTransfer.dropEffect).toBe('none')
    const drop = dragEvent(['Files'])
    listeners.get('drop')!(drop as unknown as DragEvent)
    expect(drop.defaultPrevented).toBe(true)
  })

  it('leaves alone a drop a place took (the composer with an image) and text dragged between fields', () => {
    const { target, listeners } = fakeWindow()
    const stop = guardFileDrops(target)
    const taken = dragEvent(['Files'], true)
    listeners.get('dragover')!(taken as unknown as DragEvent)
    expect(taken.dataTransfer.dropEffect).toBe('copy')
    const text = dragEvent(['text/plain'])
    listeners.get('dragover')!(text as unknown as DragEvent)
    listeners.get('drop')!(text as unknown as DragEvent)
    expect(text.defaultPrevented).toBe(false)
    stop()
    expect(listeners.size).toBe(0)
  })
})
